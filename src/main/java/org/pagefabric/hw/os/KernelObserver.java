package org.pagefabric.hw.os;

/**
 * Hears the kernel's work that a timeline shows: pages pinned by get_user_pages and CPU page
 * faults resolved. The kernel computes costs rather than waiting, so each call reports the cost the
 * caller will spend from the current simulated time on.
 */
public interface KernelObserver {
    /** get_user_pages pinned {@code pinned} pages from {@code va} of {@code as}, costing {@code costPs}. */
    void pinned(AddressSpace as, long va, int pinned, long costPs);

    /** A CPU access to {@code va} of {@code as} faulted and was resolved as {@code fault} says. */
    void faulted(AddressSpace as, long va, Fault fault);
}
