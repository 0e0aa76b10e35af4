package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** The IOMMU (Intel VT-d, ARM SMMU) that translates device addresses through the process page table. */
public final class IommuParameters {
    /** Entries of the first-level IOTLB. */
    public static final Parameter IOTLB_L1_ENTRIES = Parameter.count("iommu.iotlb.l1.entries",
            "Entries of the first-level IOTLB.").positive();
    /** Associativity of the first-level IOTLB. */
    public static final Parameter IOTLB_L1_WAYS = Parameter.count("iommu.iotlb.l1.ways",
            "Associativity of the first-level IOTLB (equal to entries, or the word full: fully associative).")
            .positive().acceptingFull();
    /** Entries of the second-level IOTLB (0: none). */
    public static final Parameter IOTLB_L2_ENTRIES = Parameter.count("iommu.iotlb.l2.entries",
            "Entries of the second-level IOTLB; 0 when there is a single level.");
    /** Associativity of the second-level IOTLB. */
    public static final Parameter IOTLB_L2_WAYS = Parameter.count("iommu.iotlb.l2.ways",
            "Associativity of the second-level IOTLB (the word full: fully associative).").positive()
            .acceptingFull();
    /** Replacement policy of the IOTLBs. */
    public static final Parameter IOTLB_EVICTION = Parameter.choice("iommu.iotlb.eviction",
            "Replacement policy of the IOTLBs.", "lru", "random");
    /** Latency of an IOTLB hit. */
    public static final Parameter PROCESSING = Parameter.time("iommu.processing",
            "Internal processing of one translation request, IOTLB lookup included.");
    /** Levels of the page table the IOMMU walks. */
    public static final Parameter WALK_LEVELS = Parameter.count("iommu.walk.levels",
            "Levels of the page table a walk visits on an IOTLB miss.").positive();
    /** Memory access time per level of a page-table walk. */
    public static final Parameter WALK_PER_LEVEL = Parameter.time("iommu.walk.per_level",
            "Time of the memory access the walker makes at each page-table level.");
    /** Page walks in progress at once. */
    public static final Parameter WALK_CONCURRENT = Parameter.count("iommu.walk.concurrent",
            "Page walks the IOMMU has in progress at once; a miss that finds them all busy waits. 0: no bound.");
    /** Run time of the IOMMU fault interrupt handler. */
    public static final Parameter FAULT_INTERRUPT = Parameter.time("iommu.fault.interrupt",
            "Run time of the IOMMU fault interrupt handler itself (fault registers read and cleared); the CPU's interrupt"
            + " delivery and entry (cpu.interrupt) come on top.");

    /** Lookup time of the second IOTLB level. */
    public static final Parameter IOTLB_L2_LOOKUP = Parameter.time("iommu.iotlb.l2.lookup",
            "Extra time of probing the second-level IOTLB after a first-level miss (the first level is in iommu.processing).");
    /** Entries of the context cache. */
    public static final Parameter CONTEXT_CACHE_ENTRIES = Parameter.count("iommu.context_cache.entries",
            "Domain contexts the IOMMU caches (fully associative); 0 fetches the context on every request.");
    /** Fetching a domain's context from memory. */
    public static final Parameter CONTEXT_FETCH = Parameter.time("iommu.context_fetch",
            "Fetching a domain's context (root and context entries) from memory on a context-cache miss.");
    /** Writing one fault record to the fault log. */
    public static final Parameter FAULT_LOG_WRITE = Parameter.time("iommu.fault_log_write",
            "Writing one fault record to the in-memory fault log.");
    /** One invalidation command. */
    public static final Parameter INVALIDATION = Parameter.time("iommu.invalidation",
            "One IOTLB invalidation command, from submission to the end of its completion wait.");
    /** Domains that can be bound at once. */
    public static final Parameter CONTEXT_BANKS = Parameter.count("iommu.context_banks",
            "Domains (processes) the IOMMU can have bound at once (SMMU context banks, VT-d domains in use).").positive();
    /** Entries of the fault log ring. */
    public static final Parameter FAULT_LOG_ENTRIES = Parameter.count("iommu.fault_log.entries",
            "Entries of the fault log ring; faults beyond it are dropped and counted.").positive();

    private IommuParameters() {
    }
}
