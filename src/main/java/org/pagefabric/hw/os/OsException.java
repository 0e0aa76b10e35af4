package org.pagefabric.hw.os;

/**
 * A memory-management call failed the way Linux would fail it: {@link #errno()} says how. The
 * time already spent before the failure is in {@link #costPs()}, because a refused mlock still
 * took CPU time.
 */
public final class OsException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Errno errno;
    private final long costPs;

    /** A failure with a message. */
    public OsException(Errno errno, String message, long costPs) {
        super(errno + ": " + message);
        this.errno = errno;
        this.costPs = costPs;
    }

    /** The error number. */
    public Errno errno() {
        return errno;
    }

    /** CPU time spent before failing, in picoseconds. */
    public long costPs() {
        return costPs;
    }
}
