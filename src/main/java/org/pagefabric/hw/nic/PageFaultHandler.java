package org.pagefabric.hw.nic;

import org.pagefabric.sim.process.Completion;

/**
 * The driver side of on-demand paging, which the NIC calls: it resolves page faults (pages in,
 * {@link Nic#mapPages}, then {@link Nic#resume(PageFault)}) and serves prefetch advice. The NIC
 * is hardware and resolves nothing itself; until a fault is resumed its QP stays suspended.
 */
@FunctionalInterface
public interface PageFaultHandler {
    /**
     * A fault was raised. Called from a NIC event at the time of the fault (the event-queue
     * entry the driver's interrupt handler reads); the handler takes as long as it models
     * before resuming. Resuming without mapping is allowed: the NIC retries the access and may
     * fault again (001: "QP is resumed without updating the page tables").
     */
    void pageFault(Nic nic, PageFault fault);

    /**
     * Advice to map {@code [address, address + length)} of {@code region} ahead of access
     * ({@code ibv_advise_mr}); {@code flags} are {@link AdviseMrFlags} bits.
     *
     * @param done completed by the handler when the work is done (after mapping, if
     *             {@link AdviseMrFlags#FLUSH}); may be null
     * @return whether the advice was taken; a handler that does not prefetch returns false
     */
    default boolean prefetch(Nic nic, MemoryRegion region, long address, long length, int flags, Completion done) {
        return false;
    }
}
