package org.pagefabric.reg.ats;

import org.pagefabric.config.Parameter;

/**
 * The device side of PCIe ATS/PRI (the NIC's Address Translation Cache and the PCIe messages of
 * translation, page requests and invalidation) and the OS side of PRI (Linux's I/O page-fault
 * path). No published measurement of ATS or PRI on a NIC is known: the Translation Request's round trip
 * is calibrated on a measured DMA read of the same size, the rest is assumed; each default says which.
 */
public final class AtsParameters {
    /** Entries of the NIC's Address Translation Cache. */
    public static final Parameter ATC_ENTRIES = Parameter.count("ats.atc.entries",
            "Entries of the NIC's Address Translation Cache (PCIe ATS device TLB), keyed by PASID and page.")
            .withDefault("512", "assumed: device ATC sizes are not published; of the order of the IOMMU's second-level IOTLB (iommu.iotlb.l2.entries 1024), which it caches from");
    /** Associativity of the ATC. */
    public static final Parameter ATC_WAYS = Parameter.count("ats.atc.ways",
            "Ways of the NIC's Address Translation Cache (must divide ats.atc.entries).")
            .withDefault("8", "assumed: a set-associative SRAM as IOTLBs are");
    /** One ATC lookup. */
    public static final Parameter ATC_LOOKUP = Parameter.time("ats.atc.lookup",
            "One lookup of the NIC's Address Translation Cache.")
            .withDefault("5 ns", "assumed: a few device clock cycles, as iommu.processing");
    /** An ATS Translation Request's PCIe round trip. */
    public static final Parameter TRANSLATION_REQUEST = Parameter.time("ats.translation_request",
            "PCIe round trip of an ATS Translation Request and its Completion, the IOMMU's own lookup or walk excluded"
                    + " (that is the IOMMU's iommu.* costs).")
            .withDefault("546 ns", "measured: on a Netronome NFP6000 in a Xeon E5-2630 v4 host by pcie-bench (Neugebauer et al., SIGCOMM 2018;"
                    + " pcie-bench/data, nfp6000-1.2GHz_bdw-Xeon-E5-2630v4-dell-t430-s0-s0-s0/lat_dma_sizes.txt, row LAT_DMA_RD Seq HWarm SZ 8:"
                    + " median 546 ns), the round trip of an 8 B DMA read the root complex answers from the host's cache without an IOMMU;"
                    + " it stands for a Translation Request, a non-posted request with an 8 B completion that reads no DRAM for data;"
                    + " the IOMMU's own lookup or walk is added as iommu.*");
    /** A Page Request reaching the IOMMU's queue. */
    public static final Parameter PAGE_REQUEST = Parameter.time("ats.page_request",
            "A PRI Page Request message crossing PCIe into the IOMMU's page-request queue.")
            .withDefault("340 ns", "assumed: a posted message one way (pcie.latency 250 ns) plus the IOMMU's queue write (one memory write, memory.latency 90 ns)");
    /** A PRG Response reaching the device. */
    public static final Parameter PAGE_RESPONSE = Parameter.time("ats.page_response",
            "A Page Request Group Response crossing PCIe to the NIC and being acted on.")
            .withDefault("450 ns", "assumed: a posted message one way (pcie.latency 250 ns) plus the device's handling (pcie.device_completer 200 ns)");
    /** An Invalidate Request reaching the device. */
    public static final Parameter INVALIDATION_REQUEST = Parameter.time("ats.invalidation.request",
            "An ATS Invalidate Request crossing PCIe to the NIC and its ATC entries being cleared.")
            .withDefault("450 ns", "assumed: a posted message one way (pcie.latency 250 ns) plus the device's ATC lookup and clear (pcie.device_completer 200 ns)");
    /** The device's Invalidation Completion reaching the IOMMU. */
    public static final Parameter INVALIDATION_COMPLETION = Parameter.time("ats.invalidation.completion",
            "The NIC's Invalidation Completion crossing PCIe back to the IOMMU, after its in-flight accesses drained.")
            .withDefault("340 ns", "assumed: a posted message one way (pcie.latency 250 ns) plus the IOMMU driver seeing its wait descriptor complete (memory.latency 90 ns)");
    /** Page Requests the NIC may have outstanding. */
    public static final Parameter PRI_OUTSTANDING = Parameter.count("ats.pri.outstanding",
            "Page Requests the NIC may have outstanding (the PRI Outstanding Page Request Allocation the OS grants);"
                    + " on a miss the NIC asks, in one Page Request Group, for the faulting page and the following pages of"
                    + " the message up to this many.")
            .withDefault("32", "assumed: the allocation Linux's AMD IOMMU driver grants, drivers/iommu/amd/iommu.c pci_enable_pri(pdev, 32) (Cassini's ATS mode runs on AMD hosts, libfabric man/fi_cxi.7.md); the ARM SMMUv3 driver grants 16");
    /** Entries of the IOMMU's page-request queue. */
    public static final Parameter PRQ_ENTRIES = Parameter.count("ats.prq.entries",
            "Entries of the IOMMU's page-request queue; a request arriving at a full queue is lost and asked again.")
            .withDefault("2048", "assumed: the depth Linux gives the VT-d page-request queue, drivers/iommu/intel/iommu.h: PRQ_ORDER 4, PRQ_SIZE = 4 KiB << PRQ_ORDER, PRQ_DEPTH = PRQ_SIZE >> 5 (32-byte descriptors): 2048");
    /** The page-request interrupt's handler. */
    public static final Parameter PRI_INTERRUPT = Parameter.time("ats.pri.interrupt",
            "The page-request interrupt's handler: reads the queued requests and queues each to the I/O page-fault"
                    + " workqueue (iommu_report_device_fault, drivers/iommu/io-pgfault.c); delivery and entry are cpu.interrupt.")
            .withDefault("2 us", "assumed: as odp.fault.interrupt, an event-queue poll and one work item queued per request");
    /** The I/O page-fault work item up to the fault itself. */
    public static final Parameter PRI_IOPF = Parameter.time("ats.pri.iopf",
            "An I/O page-fault work item before the fault: workqueue wake-up, mm reference, mmap_read_lock and vma_lookup"
                    + " (iommu_sva_handle_iopf / iommu_sva_handle_mm, drivers/iommu/iommu-sva.c); handle_mm_fault is the kernel's own cost.")
            .withDefault("5 us", "assumed: as odp.fault.event_handling, a workqueue wake-up and context switch dominate");
    /** The page response the OS sends. */
    public static final Parameter PRI_RESPONSE = Parameter.time("ats.pri.response",
            "The OS's Page Request Group Response: iopf_group_response writing a page-response descriptor to the IOMMU.")
            .withDefault("1 us", "assumed: one queued-invalidation-style descriptor and its doorbell, as iommu.invalidation");

    private AtsParameters() {
    }
}
