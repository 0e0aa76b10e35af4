package org.pagefabric.workload.trace;

import java.util.Map;
import java.util.TreeMap;

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

    private final TreeMap<Long, Range> ranges = new TreeMap<>();

    /** Records that trace range {@code [start, start+length)} lies at {@code target} on replay. */
    void map(long start, long length, long target) {
        unmap(start, length);
        ranges.put(start, new Range(start, length, target));
    }

    /** Forgets trace range {@code [start, start+length)}, splitting ranges that straddle it. */
    void unmap(long start, long length) {
        long end = start + length;
        Map.Entry<Long, Range> e = ranges.lowerEntry(end);
        while (e != null && e.getValue().start() + e.getValue().length() > start) {
            Range r = e.getValue();
            ranges.remove(r.start());
            if (r.start() < start) {
                ranges.put(r.start(), new Range(r.start(), start - r.start(), r.target()));
            }
            long rEnd = r.start() + r.length();
            if (rEnd > end) {
                ranges.put(end, new Range(end, rEnd - end, r.target() + (end - r.start())));
            }
            e = ranges.lowerEntry(r.start());
        }
    }

    /**
     * The mapped parts of trace range {@code [start, start+length)}, in address order, each as
     * {trace start, length, replay start}.
     */
    java.util.List<long[]> pieces(long start, long length) {
        java.util.List<long[]> out = new java.util.ArrayList<>();
        long end = start + length;
        Map.Entry<Long, Range> e = ranges.floorEntry(start);
        Long from = e != null && e.getValue().holds(start) ? e.getKey() : ranges.ceilingKey(start);
        if (from == null || from >= end) {
            return out;
        }
        for (Range r : ranges.subMap(from, true, end, false).values()) {
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
        Map.Entry<Long, Range> e = ranges.floorEntry(a);
        return e != null && e.getValue().holds(a) && e.getValue().holds(a + length - 1);
    }

    /** The replay address of trace address {@code a}, or -1 if no range holds it. */
    long translate(long a) {
        Map.Entry<Long, Range> e = ranges.floorEntry(a);
        if (e == null || !e.getValue().holds(a)) {
            return -1;
        }
        return e.getValue().target() + (a - e.getValue().start());
    }
}
