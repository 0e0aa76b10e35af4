package org.pagefabric.calibrate;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * The userfaultfd ABI of {@code <linux/userfaultfd.h>} on 64-bit Linux: the structures as
 * {@link MemoryLayout}s (their sizes are checked against the kernel's when the class loads), the
 * ioctl request numbers, and opening a descriptor the ways the host may allow.
 */
final class Uffd {
    static final long UFFD_API = 0xAA;
    static final long FEATURE_EVENT_REMOVE = 1L << 3;
    static final long FEATURE_EVENT_UNMAP = 1L << 6;
    static final long REGISTER_MODE_MISSING = 1;
    static final int USER_MODE_ONLY = 1;

    static final int EVENT_PAGEFAULT = 0x12;
    static final int EVENT_REMOVE = 0x15;
    static final int EVENT_UNMAP = 0x16;

    /** {@code struct uffdio_range}. */
    static final StructLayout RANGE = MemoryLayout.structLayout(
            JAVA_LONG.withName("start"), JAVA_LONG.withName("len"));
    /** {@code struct uffdio_api}. */
    static final StructLayout API = MemoryLayout.structLayout(
            JAVA_LONG.withName("api"), JAVA_LONG.withName("features"), JAVA_LONG.withName("ioctls"));
    /** {@code struct uffdio_register}. */
    static final StructLayout REGISTER = MemoryLayout.structLayout(
            RANGE.withName("range"), JAVA_LONG.withName("mode"), JAVA_LONG.withName("ioctls"));
    /** {@code struct uffdio_copy}. */
    static final StructLayout COPY = MemoryLayout.structLayout(
            JAVA_LONG.withName("dst"), JAVA_LONG.withName("src"), JAVA_LONG.withName("len"),
            JAVA_LONG.withName("mode"), JAVA_LONG.withName("copy"));
    /** {@code struct uffdio_zeropage}. */
    static final StructLayout ZEROPAGE = MemoryLayout.structLayout(
            RANGE.withName("range"), JAVA_LONG.withName("mode"), JAVA_LONG.withName("zeropage"));
    /** {@code struct uffd_msg}, with the page-fault member of its argument union. */
    static final StructLayout MSG = MemoryLayout.structLayout(
            JAVA_BYTE.withName("event"), JAVA_BYTE.withName("reserved1"), JAVA_SHORT.withName("reserved2"),
            JAVA_INT.withName("reserved3"),
            MemoryLayout.structLayout(JAVA_LONG.withName("flags"), JAVA_LONG.withName("address"),
                    JAVA_INT.withName("ptid"), JAVA_INT.withName("pad")).withName("pagefault"));
    /** {@code struct pollfd}. */
    static final StructLayout POLLFD = MemoryLayout.structLayout(
            JAVA_INT.withName("fd"), JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));

    static final long MSG_EVENT = MSG.byteOffset(groupElement("event"));
    static final long MSG_FAULT_ADDRESS = MSG.byteOffset(groupElement("pagefault"), groupElement("address"));
    /** uffd_msg.arg.remove.start and .end share the first two words of the union. */
    static final long MSG_REMOVE_START = MSG.byteOffset(groupElement("pagefault"), groupElement("flags"));

    static final long IOC_API = iowr(0x3F, API.byteSize());
    static final long IOC_REGISTER = iowr(0x00, REGISTER.byteSize());
    static final long IOC_UNREGISTER = ior(0x01, RANGE.byteSize());
    static final long IOC_WAKE = ior(0x02, RANGE.byteSize());
    static final long IOC_COPY = iowr(0x03, COPY.byteSize());
    static final long IOC_ZEROPAGE = iowr(0x04, ZEROPAGE.byteSize());
    /** {@code USERFAULTFD_IOC_NEW} on {@code /dev/userfaultfd}: {@code _IO(0xAA, 0x00)}. */
    static final long IOC_NEW = ioc(0, 0x00, 0);

    static {
        // The kernel's sizes (pahole on x86_64 and aarch64); a layout mistake must not reach an ioctl.
        check(RANGE, 16);
        check(API, 24);
        check(REGISTER, 32);
        check(COPY, 40);
        check(ZEROPAGE, 32);
        check(MSG, 32);
        check(POLLFD, 8);
        if (MSG_FAULT_ADDRESS != 16 || MSG_REMOVE_START != 8) {
            throw new ExceptionInInitializerError("uffd_msg layout does not match <linux/userfaultfd.h>");
        }
    }

    private Uffd() {
    }

    private static void check(StructLayout l, long size) {
        if (l.byteSize() != size) {
            throw new ExceptionInInitializerError("userfaultfd layout of size " + l.byteSize() + ", kernel's is " + size);
        }
    }

    private static long ioc(long dir, long nr, long size) {
        return (dir << 30) | (size << 16) | (UFFD_API << 8) | nr;
    }

    private static long iowr(long nr, long size) {
        return ioc(3, nr, size);
    }

    private static long ior(long nr, long size) {
        return ioc(2, nr, size);
    }

    /**
     * Opens a non-blocking userfaultfd: the system call, then the system call with
     * UFFD_USER_MODE_ONLY (allowed to unprivileged users when vm.unprivileged_userfaultfd is 0,
     * enough here because every fault the probe raises is a user-mode access), then
     * {@code /dev/userfaultfd}.
     *
     * @param how receives which of the three worked
     * @throws ProbeSkipped naming each attempt's error if none works
     */
    static int open(Libc libc, long sysUserfaultfd, StringBuilder how) {
        int flags = Libc.O_CLOEXEC | Libc.O_NONBLOCK;
        long fd = libc.syscall(sysUserfaultfd, flags);
        if (fd >= 0) {
            how.append("userfaultfd(2)");
            return (int) fd;
        }
        String first = Errno.name(libc.errno());
        fd = libc.syscall(sysUserfaultfd, flags | USER_MODE_ONLY);
        if (fd >= 0) {
            how.append("userfaultfd(2) with UFFD_USER_MODE_ONLY");
            return (int) fd;
        }
        String second = Errno.name(libc.errno());
        try (Arena arena = Arena.ofConfined()) {
            int dev = libc.open(arena.allocateFrom("/dev/userfaultfd"), Libc.O_RDWR | Libc.O_CLOEXEC);
            if (dev < 0) {
                throw new ProbeSkipped("userfaultfd(2): " + first + "; with UFFD_USER_MODE_ONLY: " + second
                        + "; /dev/userfaultfd: " + Errno.name(libc.errno())
                        + " (set vm.unprivileged_userfaultfd=1 or give access to /dev/userfaultfd)");
            }
            try {
                int made = libc.ioctl(dev, IOC_NEW, flags);
                if (made < 0) {
                    throw new ProbeSkipped("userfaultfd(2): " + first + "; /dev/userfaultfd USERFAULTFD_IOC_NEW: "
                            + Errno.name(libc.errno()));
                }
                how.append("/dev/userfaultfd");
                return made;
            } finally {
                libc.close(dev);
            }
        }
    }

    /**
     * The UFFDIO_API handshake asking for {@code features}.
     *
     * @throws ProbeSkipped if the kernel refuses them
     */
    static void handshake(Libc libc, int fd, long features, Arena arena) {
        MemorySegment api = arena.allocate(API);
        api.set(JAVA_LONG, 0, UFFD_API);
        api.set(JAVA_LONG, 8, features);
        if (libc.ioctl(fd, IOC_API, api.address()) != 0) {
            throw new ProbeSkipped("UFFDIO_API with features 0x" + Long.toHexString(features) + " refused: "
                    + Errno.name(libc.errno()));
        }
    }

    /**
     * Registers {@code [addr, addr+len)} for missing-page faults (and, with the descriptor's
     * features, its REMOVE and UNMAP events), through the caller's {@link #REGISTER} segment.
     *
     * @throws ProbeSkipped if the kernel refuses
     */
    static void register(Libc libc, int fd, long addr, long len, MemorySegment reg) {
        reg.set(JAVA_LONG, 0, addr);
        reg.set(JAVA_LONG, 8, len);
        reg.set(JAVA_LONG, 16, REGISTER_MODE_MISSING);
        if (libc.ioctl(fd, IOC_REGISTER, reg.address()) != 0) {
            throw new ProbeSkipped("UFFDIO_REGISTER refused: " + Errno.name(libc.errno()));
        }
    }
}
