package org.pagefabric.hw.os;

import java.util.Arrays;
import org.pagefabric.hw.mem.ContentDigest;
import org.pagefabric.hw.mem.ContentTag;

/**
 * What an address range holds, read without side effects and without cost: no faults, no
 * accessed bits, no time charged. Workloads and tests check delivered data through it
 * ({@link Kernel#verifyTag}, {@link Kernel#sameBytes}, {@link Kernel#digest}); the simulated
 * machine never does, so nothing here may change what a run measures.
 */
final class ContentInspection {
    /** The kernel whose memory and swap it reads. */
    private final Kernel k;

    ContentInspection(Kernel k) {
        this.k = k;
    }

    /** The bytes at {@code va}, from its frame or its swap slot; unmapped or untouched bytes read as zero. */
    void peek(AddressSpace as, long va, byte[] dst, int off, int len) {
        PageSpans.walk(va, va, len, (at, bt, n, done) -> {
            int pageOff = PageSpans.offset(at);
            int to = off + (int) done;
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0) {
                k.memory.read(Kernel.frameOf(pte, at), pageOff, dst, to, n);
            } else if ((pte & Pte.SWAPPED) != 0) {
                k.swap.peek(Pte.frame(pte)).read(pageOff, dst, to, n);
            } else {
                Arrays.fill(dst, to, to + n, (byte) 0);
            }
            return true;
        });
    }

    /** Whether {@code [va, va+len)} holds stream bytes {@code [pos, pos+len)} of {@code tag}. */
    boolean verifyTag(AddressSpace as, long va, long len, long tag, long pos) {
        byte[][] buf = {null};
        return PageSpans.walk(va, va, len, (at, bt, n, done) -> {
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0) {
                return k.memory.verifyTag(Kernel.frameOf(pte, at), PageSpans.offset(at), n, tag, pos + done);
            }
            if (buf[0] == null) {
                buf[0] = new byte[(int) Kernel.PAGE_SIZE];
            }
            peek(as, at, buf[0], 0, n);
            return ContentTag.matches(tag, pos + done, buf[0], 0, n);
        });
    }

    /**
     * Whether {@code [va, va+len)} of {@code as} holds exactly the bytes that {@code [vb, vb+len)}
     * of {@code bs} holds in {@code other}. Where a page holds one content tag's run the other
     * side is checked against the tag without rendering either, so checking a large tagged
     * transfer costs per page, not per byte; any other content is compared byte for byte.
     */
    boolean sameBytes(AddressSpace as, long va, ContentInspection other, AddressSpace bs, long vb, long len) {
        long[] run = new long[2];
        byte[][] bufs = {null, null};
        return PageSpans.walk(va, vb, len, (at, bt, n, done) -> {
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0 && k.memory.tagRun(Kernel.frameOf(pte, at), PageSpans.offset(at), n, run)) {
                return other.verifyTag(bs, bt, n, run[0], run[1]);
            }
            if (bufs[0] == null) {
                bufs[0] = new byte[(int) Kernel.PAGE_SIZE];
                bufs[1] = new byte[(int) Kernel.PAGE_SIZE];
            }
            peek(as, at, bufs[0], 0, n);
            other.peek(bs, bt, bufs[1], 0, n);
            return Arrays.equals(bufs[0], 0, n, bufs[1], 0, n);
        });
    }

    /** The {@link ContentDigest} of {@code [va, va+len)} as it is now. */
    long digest(AddressSpace as, long va, long len) {
        ContentDigest d = new ContentDigest();
        byte[][] buf = {null};
        PageSpans.walk(va, va, len, (at, bt, n, done) -> {
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0) {
                k.memory.digest(Kernel.frameOf(pte, at), PageSpans.offset(at), n, d);
            } else {
                if (buf[0] == null) {
                    buf[0] = new byte[(int) Kernel.PAGE_SIZE];
                }
                peek(as, at, buf[0], 0, n);
                d.update(buf[0], 0, n);
            }
            return true;
        });
        return d.value();
    }
}
