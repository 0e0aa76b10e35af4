package org.pagefabric.hw.cpu;

/**
 * The costs a node's CPU charges on top of the work it is given. All values are picoseconds
 * of virtual time; each comes from a profile with its provenance, never from code.
 *
 * @param contextSwitchPs     charged when a core starts work of a different {@link CpuThread}
 *                            than the last thread that ran on it (save and restore of the
 *                            register state, scheduler, cache and TLB refill)
 * @param interruptEntryPs    charged once per interrupt taken: vectoring, state save and
 *                            restore, EOI; the handler's own work is the item's cost
 * @param interruptDeliveryPs from the device raising an interrupt (an MSI write) to the
 *                            interrupt reaching the core's queue
 * @param idleExitPs          charged when an idle core picks up work (leaving its idle state)
 * @param pollIterationPs     one iteration of a polling loop: how long a spinning
 *                            {@link PollingThread} takes, at worst, to notice a new event
 */
public record CpuCosts(long contextSwitchPs, long interruptEntryPs, long interruptDeliveryPs, long idleExitPs,
        long pollIterationPs) {
    /** Validates that no cost is negative and that a poll iteration takes time. */
    public CpuCosts {
        requireNonNegative("contextSwitchPs", contextSwitchPs);
        requireNonNegative("interruptEntryPs", interruptEntryPs);
        requireNonNegative("interruptDeliveryPs", interruptDeliveryPs);
        requireNonNegative("idleExitPs", idleExitPs);
        if (pollIterationPs <= 0) {
            throw new IllegalArgumentException("pollIterationPs must be positive, got " + pollIterationPs);
        }
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must not be negative, got " + value);
        }
    }
}
