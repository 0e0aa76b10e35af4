package org.pagefabric.reg;

/**
 * What a registration policy can carry and what it needs of the hardware. A workload declares the
 * capabilities it requires; the {@link PolicyRegistry} runs it only under policies that offer
 * them, so a combination that cannot work is known before anything is simulated.
 */
public enum Capability {
    /** Carries one-sided RDMA writes (puts). */
    PUT("one-sided puts"),
    /** Carries one-sided RDMA reads (gets). */
    GET("one-sided gets"),
    /** Carries two-sided sends into posted receives. */
    SEND_RECEIVE("two-sided sends and receives"),
    /** Marks pages with handlers that the target's IOMMU logs and runs (Active Access, 002). */
    ACCESS_LOG("an IOMMU access log with handlers"),
    /** Moves data through its own messaging stack rather than the NIC's RDMA engine (Open-MX). */
    OWN_MESSAGING("its own messaging stack"),
    /** Lets a workload place its processes and receive interrupts on cores ({@link InterruptPlacement}). */
    INTERRUPT_PLACEMENT("placement of processes and receive interrupts on cores"),
    /** Registers through a node's on-demand-paging driver, which it offers ({@link OnDemandPaging}). */
    ON_DEMAND_PAGING("on-demand paging (ODP)"),
    /**
     * Registers device memory shared as a dma-buf ({@link DmaBufRegistrar}, ibv_reg_dmabuf_mr),
     * pinned (a static attachment: the exporter cannot move it) or on demand (a dynamic one).
     */
    DMA_BUF("registrations of device memory shared as a dma-buf (ibv_reg_dmabuf_mr)"),
    /** Reports how each node handled its network page faults ({@link FaultTrace}). */
    FAULT_TRACE("a trace of network page-fault handling"),
    /**
     * Carries operations on memory the kernel has paged out: the policy pins (which faults the
     * pages in) or resolves the NIC's page faults (PART, ODP). A policy without it leaves the NIC
     * facing a page that is not there.
     */
    PAGED_OUT_MEMORY("operations on memory the kernel has paged out"),
    /**
     * Pins the whole segment before the first access and keeps it pinned, which a device that
     * cannot fault (a DMA engine reading host memory, as pcie-bench's does) needs.
     */
    PINNED_UP_FRONT("the whole segment pinned before the device's first access"),
    /** Needs a NIC that reaches memory through an IOMMU over the process page table ({@code nic.iommu: true}). */
    NEEDS_IOMMU("a NIC behind an IOMMU (profile nic.iommu: true)");

    private final String phrase;

    Capability(String phrase) {
        this.phrase = phrase;
    }

    /** How a message names the capability: "one-sided gets". */
    public String phrase() {
        return phrase;
    }

    /** Whether this is a need of the hardware rather than an operation the policy carries. */
    public boolean isHardwareNeed() {
        return this == NEEDS_IOMMU;
    }
}
