package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** The RDMA NIC: work processing, its translation cache and memory registration. */
public final class NicParameters {
    /** Time for the NIC to process one work queue element. */
    public static final Parameter WQE_PROCESSING = Parameter.time("nic.wqe_processing",
            "Time for the NIC to fetch and process one work queue element before data moves.");
    /** Entries of the NIC's translation cache. */
    public static final Parameter TRANSLATION_CACHE_ENTRIES = Parameter.count("nic.translation_cache.entries",
            "Page translations the NIC caches on board.");
    /** Associativity of the NIC's translation cache. */
    public static final Parameter TRANSLATION_CACHE_WAYS = Parameter.count("nic.translation_cache.ways",
            "Associativity of the NIC translation cache (equal to entries: fully associative).").positive();
    /** Cost of a translation cache miss: a read of the table in host memory. */
    public static final Parameter TRANSLATION_CACHE_MISS = Parameter.time("nic.translation_cache.miss",
            "Cost of a NIC translation cache miss: a bus read of the translation table in host memory.");
    /** Fixed cost of registering memory with the NIC. */
    public static final Parameter REGISTER_BASE = Parameter.time("nic.register.base",
            "Fixed cost of registering a region with the NIC, pinning included (reg_mr, gm_register_memory).");
    /** Per-page cost of registering memory with the NIC. */
    public static final Parameter REGISTER_PER_PAGE = Parameter.time("nic.register.per_page",
            "Cost per page of registering a region with the NIC, pinning included.");
    /** Registration cost growing with the device memory a protection domain already holds. */
    public static final Parameter REGISTER_DEVICE_GROWTH = Parameter.time("nic.register.device_growth",
            "Added to each registration of device (GPU) memory per GiB of device memory the protection domain already"
                    + " holds registered; 0 where a registration's cost does not depend on earlier ones.");
    /** Fixed cost of deregistering memory. */
    /** Whether huge-page-backed regions get 2 MiB translation entries. */
    public static final Parameter TRANSLATION_CACHE_HUGE_ENTRIES = Parameter.flag("nic.translation_cache.huge_entries",
            "Whether a pinned region backed by 2 MiB pages is translated with one entry per 2 MiB block (one cache"
                    + " entry covers the block) instead of one per 4 KiB page.");
    /** Whether registration marks the range MADV_DONTFORK. */
    public static final Parameter REGISTER_DONTFORK = Parameter.flag("nic.register.dontfork",
            "Whether registering pinned memory first marks its pages MADV_DONTFORK, as libibverbs does after ibv_fork_init"
                    + " (each change of flag splits the VMA around the range).");
    /** Whether deregistration undoes MADV_DONTFORK. */
    public static final Parameter DEREGISTER_DOFORK = Parameter.flag("nic.deregister.dofork",
            "Whether deregistration marks pages no registration holds any more MADV_DOFORK again, healing the VMA"
                    + " splits (ibv_dereg_mr does; a runtime that skips it leaks a split per registration).");
    public static final Parameter DEREGISTER_BASE = Parameter.time("nic.deregister.base",
            "Fixed cost of deregistering a region (NIC table synchronisation, unpinning included).");
    /** Per-page cost of deregistering memory. */
    public static final Parameter DEREGISTER_PER_PAGE = Parameter.time("nic.deregister.per_page",
            "Cost per page of deregistering a region, unpinning included.");

    /** Bits of a memory key that are a random tag rather than the region's index. */
    public static final Parameter KEY_TAG_BITS = Parameter.count("nic.key_tag_bits",
            "Bits of a 32-bit memory key drawn at random at registration (the rest index the region): a guessed "
                    + "key with a known index is honoured with probability 2^-bits.")
            // At most 16, so that 16 index bits (65 536 regions per NIC) remain: KeyTable.MAX_TAG_BITS.
            .between("0", "16");

    /** Whether the NIC reaches memory through an IOMMU over the process page table. */
    public static final Parameter IOMMU = Parameter.flag("nic.iommu",
            "Whether the NIC's memory accesses are translated by an IOMMU walking the process page table (PART, Active Access).");
    /** From a doorbell write to the NIC starting on the request. */
    public static final Parameter DOORBELL = Parameter.time("nic.doorbell",
            "From the application's doorbell write (an MMIO write across the bus) until the NIC starts on the request.");
    /** Until the first payload bytes of a DMA read arrive. */
    public static final Parameter DMA_READ_START = Parameter.time("nic.dma_read_start",
            "From the NIC issuing a DMA read until the first payload bytes arrive from host memory (a bus read round trip).");
    /** Writing a completion entry to host memory. */
    public static final Parameter COMPLETION = Parameter.time("nic.completion",
            "Writing a completion queue entry to host memory (a posted bus write).");

    private NicParameters() {
    }
}
