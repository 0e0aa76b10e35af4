package org.pagefabric.reg;

/**
 * The network page faults of one node as its on-demand-paging driver resolved them, with the time
 * spent in each phase of their resolution (001 "Execution Time Breakdown"). The values are running
 * sums: a workload takes their difference over its timed part.
 */
public interface FaultPhases {
    /** The phases of resolving a fault, in order; their times add up to the fault time. */
    enum Phase {
        /** NIC event to the end of the interrupt handler (delivery, entry, event-queue poll). */
        INTERRUPT,
        /** Handler end to the per-QP work item having classified the fault. */
        EVENT_HANDLING,
        /** get_user_pages and DMA mapping of the range, kernel fault work included. */
        PAGE_IN,
        /** Writing the translations to the NIC. */
        MAPPING_UPDATE,
        /** The resume command, until the QP may go on. */
        RESUME
    }

    /** Faults resolved (their QP resumed) so far. */
    long resolvedFaults();

    /** Picoseconds the resolved faults spent in {@code phase} so far. */
    long phasePs(Phase phase);
}
