package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.sim.collect.LongSortedMap;

/**
 * The VMAs of one address space, ordered by start (Linux's maple tree, here a sorted array):
 * every page fault and pin looks a VMA up, so a lookup boxes and allocates nothing.
 */
final class VmaSet {
    private final LongSortedMap<Vma> byStart = new LongSortedMap<>();

    /** The VMA containing {@code va}, or null. */
    Vma find(long va) {
        int i = byStart.floorIndex(va);
        if (i < 0) {
            return null;
        }
        Vma v = byStart.value(i);
        return v.contains(va) ? v : null;
    }

    /** VMAs overlapping {@code [start, end)} in address order. */
    List<Vma> overlapping(long start, long end) {
        List<Vma> out = new ArrayList<>();
        int i = byStart.floorIndex(start);
        if (i < 0 || byStart.value(i).end() <= start) {
            i++; // the VMA below start ends before it: the first candidate starts at or after start
        }
        for (; i < byStart.size() && byStart.key(i) < end; i++) {
            Vma v = byStart.value(i);
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

    /**
     * Merges neighbouring VMAs of {@code [start, end)} and those just outside it that touch and
     * agree in protection and flags, as Linux's vma_merge does after madvise changes flags.
     */
    void mergeAround(long start, long end) {
        int i = Math.max(0, byStart.floorIndex(Math.max(0, start - 1)));
        while (i + 1 < byStart.size()) {
            Vma a = byStart.value(i);
            if (a.start() >= end + 1) {
                break;
            }
            Vma b = byStart.value(i + 1);
            if (a.end() == b.start() && a.prot() == b.prot() && a.flags() == b.flags() && b.start() <= end) {
                a.setEnd(b.end());
                byStart.remove(b.start());
            } else {
                i++;
            }
        }
    }

    /** How many VMA boundaries {@code [start, end)} lacks: splits a change of that range needs. */
    int splitsNeeded(long start, long end) {
        int n = 0;
        Vma s = find(start);
        if (s != null && s.start() != start) {
            n++;
        }
        Vma e = find(end);
        if (e != null && e.start() != end) {
            n++;
        }
        return n;
    }

    void insert(Vma v) {
        byStart.put(v.start(), v);
    }

    void remove(Vma v) {
        byStart.remove(v.start());
    }

    /** All VMAs in address order (a copy, safe to iterate while changing the set). */
    List<Vma> all() {
        List<Vma> out = new ArrayList<>(byStart.size());
        for (int i = 0; i < byStart.size(); i++) {
            out.add(byStart.value(i));
        }
        return out;
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
        for (int i = byStart.ceilingIndex(high) - 1; i >= 0; i--) {
            Vma v = byStart.value(i);
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

    /** Estimated heap bytes: a key and a reference per VMA in the index, and the 40-byte VMA. */
    long footprintBytes() {
        return 48 + byStart.size() * (12L + 40);
    }
}
