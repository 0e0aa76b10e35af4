package org.pagefabric.hw.os;

/**
 * What a driver (ODP, Open-MX's pin cache, an IOMMU's TLB) does when mappings it mirrors change:
 * Linux's {@code mmu_interval_notifier_ops.invalidate}. Called before the page tables change,
 * with the overlap of the change and the subscription; the subscription's sequence is already
 * advanced, so a concurrent fault that read the old sequence will see {@code readRetry} true.
 */
@FunctionalInterface
public interface MmuInvalidationCallback {
    /**
     * Invalidates {@code [start, end)} (clipped to the subscription).
     *
     * @param subscription the subscription
     * @param start        first byte affected
     * @param end          one past the last byte affected
     * @param reason       why
     * @param seq          the subscription's new sequence number
     */
    void invalidate(MmuIntervalNotifier subscription, long start, long end, InvalidationReason reason, long seq);

    /** Called after the page tables changed (Linux's invalidate_range_end); nothing by default. */
    default void invalidateEnd(MmuIntervalNotifier subscription, long start, long end, InvalidationReason reason) {
    }

    /**
     * Reclaim asks whether the mirror used {@code [start, end)} since it last asked, and clears
     * what it keeps of that: Linux's {@code mmu_notifier_ops.clear_flush_young}, which reclaim's
     * page_referenced calls next to the CPU's accessed bit (KVM implements it for guest memory).
     * A mirror that tracks no use answers false, the default: the page looks idle to reclaim.
     */
    default boolean clearYoung(MmuIntervalNotifier subscription, long start, long end) {
        return false;
    }
}
