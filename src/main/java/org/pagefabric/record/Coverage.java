package org.pagefabric.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.agrona.collections.LongHashSet;

/**
 * The memory one rank's records map as the transcription goes (malloc blocks and private
 * mappings since MPI_Init), and the buffers its MPI calls named outside of it: the stack, static
 * data, and blocks allocated before MPI_Init. Those become mappings at the start of the rank's
 * records, so the replay has memory wherever the program communicated from. Each block is
 * numbered in the order the rank allocated it, the same on every pass over its log, and the
 * blocks an MPI buffer overlaps while they live are noted: only those reach the trace.
 */
final class Coverage {
    private static final long PAGE = 4096;
    /** Buffers closer than this share one mapping, so a stack's many buffers make one range. */
    private static final long JOIN = 64 << 10;

    /** Live blocks by address: {end, number}. */
    private final TreeMap<Long, long[]> blocks = new TreeMap<>();
    private final TreeMap<Long, Long> mappings = new TreeMap<>();
    private final TreeMap<Long, Long> outside = new TreeMap<>();
    private final LongHashSet used = new LongHashSet();
    private long allocated;

    /** A malloc block appeared: its number. */
    long malloc(long addr, long len) {
        long n = allocated++;
        blocks.put(addr, new long[] {addr + len, n});
        return n;
    }

    /** Whether {@code addr} is a live malloc block. */
    boolean isBlock(long addr) {
        return blocks.containsKey(addr);
    }

    /** A malloc block went away: its number, or -1 if no live block starts at {@code addr}. */
    long free(long addr) {
        long[] b = blocks.remove(addr);
        return b == null ? -1 : b[1];
    }

    /** The numbers of the blocks an MPI buffer overlapped while they lived. */
    LongHashSet used() {
        return used;
    }

    /** A private mapping appeared. */
    void map(long addr, long len) {
        unmap(addr, len);
        mappings.put(addr, addr + len);
    }

    /** Whether any live mapping overlaps {@code [addr, addr+len)}. */
    boolean mapped(long addr, long len) {
        Map.Entry<Long, Long> e = mappings.lowerEntry(addr + len);
        return e != null && e.getValue() > addr;
    }

    /** Mappings within {@code [addr, addr+len)} went away. */
    void unmap(long addr, long len) {
        long end = addr + len;
        Map.Entry<Long, Long> e;
        while ((e = mappings.lowerEntry(end)) != null && e.getValue() > addr) {
            mappings.remove(e.getKey());
            if (e.getKey() < addr) {
                mappings.put(e.getKey(), addr);
            }
            if (e.getValue() > end) {
                mappings.put(end, e.getValue());
            }
        }
    }

    /**
     * A buffer an MPI call names: the live blocks it overlaps are noted as used, and the buffer as
     * outside if no live block or mapping holds it whole.
     */
    void use(long addr, long len) {
        if (len <= 0 || addr == 0) {
            return;
        }
        long end = addr + len;
        // blocks do not overlap, so their ends rise with their starts
        for (Map.Entry<Long, long[]> b = blocks.lowerEntry(end); b != null && b.getValue()[0] > addr;
                b = blocks.lowerEntry(b.getKey())) {
            used.add(b.getValue()[1]);
        }
        Map.Entry<Long, long[]> block = blocks.floorEntry(addr);
        if (block != null && block.getValue()[0] >= end || within(mappings, addr, len)) {
            return;
        }
        outside.merge(addr & -PAGE, (end + PAGE - 1) & -PAGE, Math::max);
    }

    private static boolean within(TreeMap<Long, Long> ranges, long addr, long len) {
        Map.Entry<Long, Long> e = ranges.floorEntry(addr);
        return e != null && e.getValue() >= addr + len;
    }

    /** The ranges to map before the rank's first record, each {start, length}, in address order. */
    List<long[]> outsideRanges() {
        List<long[]> out = new ArrayList<>();
        long start = -1;
        long end = -1;
        for (Map.Entry<Long, Long> e : outside.entrySet()) {
            if (start >= 0 && e.getKey() <= end + JOIN) {
                end = Math.max(end, e.getValue());
                continue;
            }
            if (start >= 0) {
                out.add(new long[] {start, end - start});
            }
            start = e.getKey();
            end = e.getValue();
        }
        if (start >= 0) {
            out.add(new long[] {start, end - start});
        }
        return out;
    }
}
