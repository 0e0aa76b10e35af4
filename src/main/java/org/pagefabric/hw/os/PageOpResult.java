package org.pagefabric.hw.os;

/**
 * The outcome of a kernel page operation that may be refused (migration, huge page collapse or
 * split).
 *
 * @param error  null on success, else why it was refused (EBUSY: pinned; EAGAIN: no frame free
 *               or page in transition; EINVAL: nothing there to operate on)
 * @param costPs kernel time in picoseconds, spent whether or not it succeeded
 */
public record PageOpResult(Errno error, long costPs) {
    /** Whether the operation was done. */
    public boolean done() {
        return error == null;
    }
}
