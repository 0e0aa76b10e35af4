package org.pagefabric.hw.iommu;

/**
 * The page walks an IOMMU can have in progress at once. A walk that finds every slot busy waits
 * for the first to free, so under a stream of IOTLB misses the walks, not the device's
 * outstanding requests, bound the rate at {@code slots} walks per walk time.
 */
final class WalkSlots {
    private final long[] freeAt;

    /** {@code slots} concurrent walks; 0 leaves walks unbounded (each starts when asked). */
    WalkSlots(int slots) {
        if (slots < 0) {
            throw new IllegalArgumentException("concurrent walks must not be negative, got " + slots);
        }
        this.freeAt = new long[slots];
    }

    /**
     * Reserves the slot that frees first for a walk of {@code walkPs} asked for at {@code now};
     * returns how long the walk waits before it starts.
     */
    long reserve(long now, long walkPs) {
        if (freeAt.length == 0) {
            return 0;
        }
        int first = 0;
        for (int i = 1; i < freeAt.length; i++) {
            if (freeAt[i] < freeAt[first]) {
                first = i;
            }
        }
        long start = Math.max(now, freeAt[first]);
        freeAt[first] = start + walkPs;
        return start - now;
    }
}
