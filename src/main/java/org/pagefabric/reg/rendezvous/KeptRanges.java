package org.pagefabric.reg.rendezvous;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.reg.pinning.PinnedRange;
import org.pagefabric.sim.collect.LongSortedMap;

/**
 * The ranges a Rendezvous target pinned for its peers and keeps pinned (no-unpin), found by
 * address: a pin request for memory a kept range covers is answered with that range's key and
 * pins nothing.
 */
final class KeptRanges {
    /** Ranges by first byte; ranges that start on the same page share a list, oldest first. */
    private final LongSortedMap<List<PinnedRange>> byStart = new LongSortedMap<>();
    /** Bytes of the longest range kept: no range starting further below an address can cover it. */
    private long longest;

    /**
     * A kept range covering {@code [va, va + length)}, or null if none does: of several, the one
     * starting highest, and of those the oldest.
     */
    PinnedRange find(long va, long length) {
        for (int i = byStart.floorIndex(va); i >= 0 && byStart.key(i) >= va - longest; i--) {
            List<PinnedRange> same = byStart.value(i);
            for (int j = 0; j < same.size(); j++) {
                PinnedRange r = same.get(j);
                if (r.covers(va, length)) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Keeps {@code range}. */
    void add(PinnedRange range) {
        List<PinnedRange> same = byStart.get(range.start());
        if (same == null) {
            same = new ArrayList<>(1);
            byStart.put(range.start(), same);
        }
        same.add(range);
        longest = Math.max(longest, range.bytes());
    }
}
