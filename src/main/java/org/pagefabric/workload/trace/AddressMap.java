package org.pagefabric.workload.trace;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.sim.collect.LongSortedMap;

/**
 * Where the ranges a trace names lie in the replaying rank's address space: the trace was taken
 * in another process (or another simulated machine), so a mapping may land elsewhere on replay;
 * every address a later record names is moved by the offset of the range that holds it.
 */
final class AddressMap {
    /** A range of trace addresses and where it starts on replay. */
    private record Range(long start, long length, long target) {
        boolean holds(long a) {
            return a >= start && a - start < length;
        }
    }

    private final LongSortedMap<Range> ranges = new LongSortedMap<>();

    /** Records that trace range {@code [start, start+length)} lies at {@code target} on replay. */
    void map(long start, long length, long target) {
        unmap(start, length);
        ranges.put(start, new Range(start, length, target));
    }

    /** Forgets trace range {@code [start, start+length)}, splitting ranges that straddle it. */
    void unmap(long start, long length) {
        long end = start + length;
        int i = ranges.floorIndex(end - 1);
        while (i >= 0 && ranges.value(i).start() + ranges.value(i).length() > start) {
            Range r = ranges.removeAt(i);
            if (r.start() < start) {
                ranges.put(r.start(), new Range(r.start(), start - r.start(), r.target()));
            }
            long rEnd = r.start() + r.length();
            if (rEnd > end) {
                ranges.put(end, new Range(end, rEnd - end, r.target() + (end - r.start())));
            }
            i = ranges.floorIndex(r.start() - 1);
        }
    }

    /**
     * The mapped parts of trace range {@code [start, start+length)}, in address order, each as
     * {trace start, length, replay start}.
     */
    List<long[]> pieces(long start, long length) {
        List<long[]> out = new ArrayList<>();
        long end = start + length;
        int i = ranges.floorIndex(start);
        if (i < 0 || !ranges.value(i).holds(start)) {
            i = ranges.ceilingIndex(start);
        }
        for (; i < ranges.size() && ranges.key(i) < end; i++) {
            Range r = ranges.value(i);
            long a = Math.max(r.start(), start);
            long b = Math.min(r.start() + r.length(), end);
            if (b > a) {
                out.add(new long[] {a, b - a, r.target() + (a - r.start())});
            }
        }
        return out;
    }

    /** Forgets every range. */
    void clear() {
        ranges.clear();
    }

    /** Whether {@code [a, a+length)} lies within one mapped range. */
    boolean holds(long a, long length) {
        Range r = containing(a);
        return r != null && r.holds(a + length - 1);
    }

    /** The replay address of trace address {@code a}, or -1 if no range holds it. */
    long translate(long a) {
        Range r = containing(a);
        return r == null ? -1 : r.target() + (a - r.start());
    }

    private Range containing(long a) {
        int i = ranges.floorIndex(a);
        return i >= 0 && ranges.value(i).holds(a) ? ranges.value(i) : null;
    }
}
