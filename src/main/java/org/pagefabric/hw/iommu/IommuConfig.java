package org.pagefabric.hw.iommu;

import java.util.List;

/**
 * The structure of an IOMMU.
 *
 * @param iotlbLevels      the IOTLB levels, L1 first (e.g. the SMMU's 128-entry fully
 *                         associative L1 and 2048-entry 4-way L2)
 * @param contextCache     the context cache (domain to context bank), or null for none
 * @param contextBanks     how many domains can be bound at once
 * @param faultLogCapacity entries in the fault log ring
 * @param concurrentWalks  page walks in progress at once; 0 for no bound (each miss walks when it
 *                         arrives)
 */
public record IommuConfig(List<IotlbLevelConfig> iotlbLevels, IotlbLevelConfig contextCache, int contextBanks,
        int faultLogCapacity, int concurrentWalks) {
    /** A structure whose walks are not bounded in number. */
    public IommuConfig(List<IotlbLevelConfig> iotlbLevels, IotlbLevelConfig contextCache, int contextBanks,
            int faultLogCapacity) {
        this(iotlbLevels, contextCache, contextBanks, faultLogCapacity, 0);
    }

    /** Validates the structure and copies the level list. */
    public IommuConfig {
        if (iotlbLevels == null || iotlbLevels.isEmpty()) {
            throw new IllegalArgumentException("an IOMMU needs at least one IOTLB level");
        }
        iotlbLevels = List.copyOf(iotlbLevels);
        if (contextBanks <= 0) {
            throw new IllegalArgumentException("contextBanks must be positive, got " + contextBanks);
        }
        if (faultLogCapacity <= 0) {
            throw new IllegalArgumentException("faultLogCapacity must be positive, got " + faultLogCapacity);
        }
        if (concurrentWalks < 0) {
            throw new IllegalArgumentException("concurrentWalks must not be negative, got " + concurrentWalks);
        }
    }
}
