package org.pagefabric.hw.nic;

/**
 * Memory-region access flags, as in verbs' {@code ibv_access_flags}: what the local NIC and
 * remote peers may do through a region's keys. Local read is always allowed.
 */
public final class AccessFlags {
    /** The NIC may write the region for local operations (receives, read responses, atomics' results). */
    public static final int LOCAL_WRITE = 1;
    /** Remote peers may RDMA-write the region. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** Remote peers may RDMA-read the region. */
    public static final int REMOTE_READ = 1 << 2;
    /** Remote peers may run atomics on the region. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** On-demand paging: pages are not pinned; translation entries may be non-present. */
    public static final int ON_DEMAND = 1 << 4;
    /**
     * Shared virtual addressing (PART, 000 §III-B): the region's addresses are translated by the
     * node's IOMMU through the process page table with the protection domain's PDID, not by the
     * NIC's own table; nothing is pinned and a translation fault is resolved by software.
     */
    public static final int IOMMU = 1 << 5;

    private static final String[] NAMES = {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC", "ON_DEMAND",
        "IOMMU"};

    private AccessFlags() {
    }

    /** Whether {@code flags} grant every bit of {@code needed}. */
    public static boolean allows(int flags, int needed) {
        return (flags & needed) == needed;
    }

    /** The flags as names joined by '|', e.g. {@code LOCAL_WRITE|REMOTE_WRITE}. */
    public static String describe(int flags) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < NAMES.length; i++) {
            if ((flags & (1 << i)) != 0) {
                if (!b.isEmpty()) {
                    b.append('|');
                }
                b.append(NAMES[i]);
            }
        }
        return b.isEmpty() ? "NONE" : b.toString();
    }
}
