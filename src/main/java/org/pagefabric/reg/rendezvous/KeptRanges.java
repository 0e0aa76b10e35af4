package org.pagefabric.reg.rendezvous;

import org.pagefabric.reg.pinning.PinnedRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ranges a Rendezvous target pinned for its peers and keeps pinned (no-unpin), found by
 * address: a pin request for memory a kept range covers is answered with that range's key and
 * pins nothing.
 */
final class KeptRanges {
    /** Ranges by first byte; ranges that start on the same page share a list. */
    private final TreeMap<Long, List<PinnedRange>> byStart = new TreeMap<>();
    /** Bytes of the longest range kept: no range starting further below an address can cover it. */
    private long longest;

    /** A kept range covering {@code [va, va + length)}, or null if none does. */
    PinnedRange find(long va, long length) {
        for (Map.Entry<Long, List<PinnedRange>> e = byStart.floorEntry(va); e != null && e.getKey() >= va - longest;
             e = byStart.lowerEntry(e.getKey())) {
            for (PinnedRange r : e.getValue()) {
                if (r.covers(va, length)) {
                    return r;
                }
            }
        }
        return null;
    }

    /** Keeps {@code range}. */
    void add(PinnedRange range) {
        byStart.computeIfAbsent(range.start(), k -> new ArrayList<>(1)).add(range);
        longest = Math.max(longest, range.bytes());
    }
}
