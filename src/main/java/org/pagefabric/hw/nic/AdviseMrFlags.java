package org.pagefabric.hw.nic;

/**
 * Flags of {@link Nic#advise}, as verbs' {@code ibv_advise_mr}: exactly one advice, optionally
 * with {@link #FLUSH}.
 */
public final class AdviseMrFlags {
    /** Map the range for reading. */
    public static final int PREFETCH = 1;
    /** Map the range writable. */
    public static final int PREFETCH_WRITE = 1 << 1;
    /** Map only pages already resident in the process's page table; never fault pages in. */
    public static final int PREFETCH_NO_FAULT = 1 << 2;
    /**
     * Synchronous ({@code IBV_ADVISE_MR_FLAG_FLUSH}): the handler completes the caller's
     * completion only once the range is mapped; without it the work may be queued and the
     * completion, if any, tells when it ran.
     */
    public static final int FLUSH = 1 << 3;

    private static final int ADVICE = PREFETCH | PREFETCH_WRITE | PREFETCH_NO_FAULT;

    private AdviseMrFlags() {
    }

    /** Whether {@code flags} hold exactly one advice and nothing unknown. */
    public static boolean valid(int flags) {
        int advice = flags & ADVICE;
        return (flags & ~(ADVICE | FLUSH)) == 0 && advice != 0 && (advice & (advice - 1)) == 0;
    }

    /** Whether the advice asks for writable mappings. */
    public static boolean write(int flags) {
        return (flags & PREFETCH_WRITE) != 0;
    }

    /** Whether the caller wants the range mapped before its completion fires. */
    public static boolean synchronous(int flags) {
        return (flags & FLUSH) != 0;
    }
}
