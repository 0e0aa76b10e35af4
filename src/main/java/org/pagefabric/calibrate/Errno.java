package org.pagefabric.calibrate;

/** Names of the errno values the probes report, so that a skip reason reads like strerror. */
final class Errno {
    private Errno() {
    }

    /** {@code EPERM (operation not permitted)} for 1, and so on; the number for others. */
    static String name(int errno) {
        return switch (errno) {
            case 1 -> "EPERM (operation not permitted)";
            case 2 -> "ENOENT (no such file or directory)";
            case 4 -> "EINTR (interrupted)";
            case 9 -> "EBADF (bad file descriptor)";
            case 11 -> "EAGAIN (resource temporarily unavailable)";
            case 12 -> "ENOMEM (cannot allocate memory)";
            case 13 -> "EACCES (permission denied)";
            case 14 -> "EFAULT (bad address)";
            case 16 -> "EBUSY (device or resource busy)";
            case 17 -> "EEXIST (file exists)";
            case 22 -> "EINVAL (invalid argument)";
            case 25 -> "ENOTTY (inappropriate ioctl)";
            case 38 -> "ENOSYS (function not implemented)";
            default -> "errno " + errno;
        };
    }
}
