package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The VMAs of one address space, ordered by start (Linux's maple tree, here a red-black tree). */
final class VmaSet {
    private final TreeMap<Long, Vma> byStart = new TreeMap<>();

    /** The VMA containing {@code va}, or null. */
    Vma find(long va) {
        Map.Entry<Long, Vma> e = byStart.floorEntry(va);
        return e != null && e.getValue().contains(va) ? e.getValue() : null;
    }

    /** VMAs overlapping {@code [start, end)} in address order. */
    List<Vma> overlapping(long start, long end) {
        List<Vma> out = new ArrayList<>();
        Map.Entry<Long, Vma> first = byStart.floorEntry(start);
        Long from = first != null && first.getValue().end() > start ? first.getKey() : Long.valueOf(start);
        for (Vma v : byStart.subMap(from, true, end, false).values()) {
            if (v.end() > start) {
                out.add(v);
            }
        }
        return out;
    }

    /** Whether every byte of {@code [start, end)} is in some VMA. */
    boolean covers(long start, long end) {
        long at = start;
        for (Vma v : overlapping(start, end)) {
            if (v.start() > at) {
                return false;
            }
            at = v.end();
        }
        return at >= end;
    }

    /** Makes {@code va} a VMA boundary (splitting the VMA containing it) if it is inside one. */
    void splitAt(long va) {
        Vma v = find(va);
        if (v == null || v.start() == va) {
            return;
        }
        Vma right = new Vma(va, v.end(), v.prot(), v.flags());
        v.setEnd(va);
        byStart.put(va, right);
    }

    void insert(Vma v) {
        byStart.put(v.start(), v);
    }

    void remove(Vma v) {
        byStart.remove(v.start());
    }

    /** All VMAs in address order (a copy, safe to iterate while changing the set). */
    List<Vma> all() {
        return new ArrayList<>(byStart.values());
    }

    int size() {
        return byStart.size();
    }

    /**
     * The highest {@code align}-aligned start of a free gap of {@code len} bytes inside
     * {@code [low, high)}, searching top-down like Linux's mmap, or -1.
     */
    long findGapTopDown(long len, long align, long low, long high) {
        long ceiling = high;
        for (Vma v : byStart.headMap(high, false).descendingMap().values()) {
            long candidate = alignDown(ceiling - len, align);
            if (v.end() <= candidate && candidate >= low) {
                return candidate;
            }
            ceiling = Math.min(ceiling, v.start());
            if (ceiling <= low) {
                return -1;
            }
        }
        long candidate = alignDown(ceiling - len, align);
        return candidate >= low ? candidate : -1;
    }

    private static long alignDown(long v, long align) {
        return v < 0 ? -1 : v & -align;
    }

    long footprintBytes() {
        return 48 + byStart.size() * (40L + 40);
    }
}
