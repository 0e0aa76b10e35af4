package org.pagefabric.reg.odp;

import org.pagefabric.config.Parameter;

/** On-Demand Paging (seed 001): the components of resolving a NIC page fault. */
public final class OdpParameters {
    /** From the NIC posting a page-fault event to the driver's interrupt handler running. */
    public static final Parameter FAULT_INTERRUPT = Parameter.time("odp.fault.interrupt",
            "From the NIC posting a page-fault event to the driver's interrupt handler running.");
    /** Classifying the fault and scheduling the per-QP work item that resolves it. */
    public static final Parameter FAULT_EVENT_HANDLING = Parameter.time("odp.fault.event_handling",
            "Reading and classifying the fault event and getting the per-QP work item running.");
    /** Fixed cost of paging in a faulting range. */
    public static final Parameter FAULT_PAGE_IN_BASE = Parameter.time("odp.fault.page_in.base",
            "Fixed cost of paging in a faulting range (mm lookup, notifier sequence, locking).");
    /** Per-page cost of paging in and DMA-mapping a page. */
    public static final Parameter FAULT_PAGE_IN_PER_PAGE = Parameter.time("odp.fault.page_in.per_page",
            "Cost per page of paging in and DMA-mapping one page of a faulting range.");
    /** Fixed cost of writing new translations to the NIC. */
    public static final Parameter FAULT_MAPPING_UPDATE_BASE = Parameter.time("odp.fault.mapping_update.base",
            "Fixed cost of updating the NIC translation table after a page-in (UMR post and completion).");
    /** Per-page cost of writing new translations to the NIC. */
    public static final Parameter FAULT_MAPPING_UPDATE_PER_PAGE = Parameter.time("odp.fault.mapping_update.per_page",
            "Cost per page of updating the NIC translation table.");
    /** Resuming the suspended QP. */
    public static final Parameter FAULT_RESUME = Parameter.time("odp.fault.resume",
            "Resuming the suspended QP once translations are in place (PAGE_FAULT_RESUME command).");
    /** Fixed cost of invalidating NIC translations on an MMU-notifier call. */
    public static final Parameter INVALIDATE_BASE = Parameter.time("odp.invalidate.base",
            "Fixed cost of zapping NIC translations for an invalidated range and waiting for in-flight DMA.");
    /** Per-page cost of invalidating NIC translations. */
    public static final Parameter INVALIDATE_PER_PAGE = Parameter.time("odp.invalidate.per_page",
            "Cost per page of invalidating NIC translations and unmapping DMA.");
    /** Page faults a QP may have outstanding. */
    public static final Parameter MAX_FAULTS_PER_QP = Parameter.count("odp.max_faults_per_qp",
            "Page faults one QP may have outstanding (requester and responder).").positive();
    /** Largest range one prefetch call pages in. */
    public static final Parameter PREFETCH_MAX = Parameter.size("odp.prefetch.max",
            "Largest range one prefetch (advise_mr) call pages in.").positive();
    /** Size of the child regions an implicit ODP key creates. */
    public static final Parameter IMPLICIT_CHILD_SIZE = Parameter.size("odp.implicit.child_size",
            "Size of each child region an implicit ODP key creates on first fault.").powerOfTwo();

    /** Whether the NIC can take page faults at all (on-demand paging). */
    public static final Parameter SUPPORTED = Parameter.flag("odp.supported",
            "Whether the NIC and its driver offer on-demand paging; without it every ODP policy is refused.");
    /** Whether NIC accesses set accessed/dirty bits that the driver reports to reclaim. */
    public static final Parameter ACCESS_BITS = Parameter.flag("odp.access_bits",
            "NIC accesses set the accessed (and dirty) bits of the region's translation entries, and the driver"
                    + " reports them to reclaim through the MMU notifier's clear-young, so pages the NIC uses stay resident.");

    /** The NIC's processing of a memory-window bind, beyond fetching the work request. */
    public static final Parameter MW_BIND = Parameter.time("odp.mw.bind",
            "The NIC's processing of a BIND_MW work request (writing the window's key context), beyond fetching it.");
    /** The NIC's processing of a memory-window invalidation, beyond fetching the work request. */
    public static final Parameter MW_INVALIDATE = Parameter.time("odp.mw.invalidate",
            "The NIC's processing of a LOCAL_INV work request on a window's key, beyond fetching it.");
    /** Transfers through a window after which odp-windows revokes it (0: never). */
    public static final Parameter MW_REVOKE_EVERY = Parameter.count("odp.mw.revoke_every",
            "odp-windows revokes a peer's window (LOCAL_INV) after this many transfers through it and rebinds it under"
                    + " a fresh key on the next; 0 never revokes.");

    private OdpParameters() {
    }
}
