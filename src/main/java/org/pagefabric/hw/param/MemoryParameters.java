package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** Physical memory of a node. */
public final class MemoryParameters {
    /** Physical memory per node. */
    public static final Parameter SIZE = Parameter.size("memory.size",
            "Physical memory per node.").positive().between("1 MiB", "4096 GiB");
    /** Base page size of the virtual memory system. */
    public static final Parameter PAGE_SIZE = Parameter.size("memory.page_size",
            "Base page size of the CPU and IOMMU page tables.").powerOfTwo()
            .between("4 KiB", "1 GiB");
    /** Latency of one access that misses the caches. */
    public static final Parameter LATENCY = Parameter.time("memory.latency",
            "Latency of one cache-line access that misses every cache (a DRAM access).");
    /** Peak memory bandwidth of a node. */
    public static final Parameter BANDWIDTH = Parameter.bandwidth("memory.bandwidth",
            "Peak bandwidth between the memory controllers and DRAM of one node.");

    private MemoryParameters() {
    }
}
