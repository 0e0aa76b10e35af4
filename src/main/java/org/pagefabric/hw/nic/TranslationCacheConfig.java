package org.pagefabric.hw.nic;

import org.pagefabric.hw.iommu.IotlbLevelConfig;
import org.pagefabric.hw.iommu.ReplacementPolicy;

/**
 * Shape of the NIC's translation cache (the on-chip cache of its memory translation table).
 * A hit costs nothing beyond the work-request processing it is part of; a miss costs
 * {@link NicCosts#translationMissPs()} (a PCIe read of the entry).
 *
 * @param entries translation entries, at least 1
 * @param ways    entries per set; must divide {@code entries} ({@code entries} is fully associative)
 * @param policy  which way of a full set is evicted
 * @param hugeEntries whether a region backed by 2 MiB pages is translated (and cached) with one
 *                entry per 2 MiB block instead of one per 4 KiB page
 */
public record TranslationCacheConfig(int entries, int ways, ReplacementPolicy policy, boolean hugeEntries) {
    /** A cache with an entry per 4 KiB page whatever backs the region. */
    public TranslationCacheConfig(int entries, int ways, ReplacementPolicy policy) {
        this(entries, ways, policy, false);
    }

    /** Validates the shape. */
    public TranslationCacheConfig {
        if (entries <= 0) {
            throw new IllegalArgumentException("translation cache entries must be positive, got " + entries);
        }
        if (ways <= 0 || ways > entries || entries % ways != 0) {
            throw new IllegalArgumentException("translation cache ways must divide entries (" + entries + "), got " + ways);
        }
        if (policy == null) {
            throw new IllegalArgumentException("translation cache needs a replacement policy");
        }
    }

    /** The same shape as a generic cache level (lookup cost zero: a hit is part of WQE processing). */
    IotlbLevelConfig level() {
        return new IotlbLevelConfig(entries, ways, policy, 0);
    }
}
