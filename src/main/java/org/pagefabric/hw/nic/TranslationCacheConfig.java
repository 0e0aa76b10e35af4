package org.pagefabric.hw.nic;

import org.pagefabric.hw.iommu.IotlbLevelConfig;
import org.pagefabric.hw.iommu.ReplacementPolicy;

/**
 * Shape of the NIC's translation cache (the on-chip cache of its memory translation table).
 * A hit costs nothing beyond the work-request processing it is part of; a miss costs
 * {@link NicCosts#translationMissPs()} (a PCIe read of the entry).
 *
 * @param entries translation entries (one per 4 KiB page), at least 1
 * @param ways    entries per set; must divide {@code entries} ({@code entries} is fully associative)
 * @param policy  which way of a full set is evicted
 */
public record TranslationCacheConfig(int entries, int ways, ReplacementPolicy policy) {
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
