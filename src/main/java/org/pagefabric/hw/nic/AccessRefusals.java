package org.pagefabric.hw.nic;

import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's refused accesses, counted by reason, and its answer to a non-present translation
 * entry: a page fault for an on-demand region, a counted model bug for a pinned one. Requester
 * and responder share it because both meet the same entries through the same tables.
 */
final class AccessRefusals {
    private final Counter[] refused;
    private final Counter unmappedPinned;
    private final PageFaultUnit faults;

    /**
     * @param refused        one counter per {@link AccessCheck} ordinal, null for {@code OK}
     * @param unmappedPinned accesses that met a non-present entry of a pinned region
     */
    AccessRefusals(Counter[] refused, Counter unmappedPinned, PageFaultUnit faults) {
        this.refused = refused;
        this.unmappedPinned = unmappedPinned;
        this.faults = faults;
    }

    /** Counts an access refused for {@code reason} (not {@code OK}). */
    void count(AccessCheck reason) {
        refused[reason.ordinal()].increment();
    }

    /** Accesses refused for {@code reason} so far. */
    long refused(AccessCheck reason) {
        return reason == AccessCheck.OK ? 0 : refused[reason.ordinal()].value();
    }

    /** All refused accesses so far. */
    long total() {
        long n = 0;
        for (Counter c : refused) {
            if (c != null) {
                n += c.value();
            }
        }
        return n;
    }

    /** Counts an access to a non-present entry of a pinned region (a policy forgot a page). */
    void countUnmappedPinned() {
        unmappedPinned.increment();
    }

    /** Accesses refused because an entry of a pinned region was not present. */
    long unmappedPinned() {
        return unmappedPinned.value();
    }

    /**
     * An access met a non-present entry at {@code address}, with the access reaching to
     * {@code end}: raises a fault for an on-demand region, counts a model bug for a pinned one.
     *
     * The retry of an access whose fault the driver could not resolve is refused instead.
     *
     * @return whether the access is to be retried, not refused
     */
    boolean unmapped(PageFaultKind kind, QueuePair qp, MemoryRegion mr, long address, long end, boolean write) {
        if (!mr.onDemand()) {
            unmappedPinned.increment();
            return false;
        }
        if (faults.consumeFailed(kind, qp, mr, address)) {
            return false;
        }
        faults.raise(kind, qp, mr, address, end - address, write);
        return true;
    }
}
