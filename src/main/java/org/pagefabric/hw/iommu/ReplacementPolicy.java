package org.pagefabric.hw.iommu;

/** Which way of a full set an IOTLB level evicts. */
public enum ReplacementPolicy {
    /** The least recently used way (hits and fills count as uses). */
    LRU,
    /** A uniformly random way, drawn from the level's random stream. */
    RANDOM
}
