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
        for (PageSpans s = new PageSpans(va, va, len); s.next(); ) {
            long at = s.at();
            int to = off + (int) s.done();
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0) {
                k.memory.read(Kernel.frameOf(pte, at), s.offset(), dst, to, s.n());
            } else if ((pte & Pte.SWAPPED) != 0) {
                k.swap.peek(Pte.frame(pte)).read(s.offset(), dst, to, s.n());
            } else {
                Arrays.fill(dst, to, to + s.n(), (byte) 0);
            }
        }
    }

    /** Whether {@code [va, va+len)} holds stream bytes {@code [pos, pos+len)} of {@code tag}. */
    boolean verifyTag(AddressSpace as, long va, long len, long tag, long pos) {
        byte[] buf = null;
        for (PageSpans s = new PageSpans(va, va, len); s.next(); ) {
            long at = s.at();
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0) {
                if (!k.memory.verifyTag(Kernel.frameOf(pte, at), s.offset(), s.n(), tag, pos + s.done())) {
                    return false;
                }
            } else {
                if (buf == null) {
                    buf = new byte[(int) Kernel.PAGE_SIZE];
                }
                peek(as, at, buf, 0, s.n());
                if (!ContentTag.matches(tag, pos + s.done(), buf, 0, s.n())) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether {@code [va, va+len)} of {@code as} holds exactly the bytes that {@code [vb, vb+len)}
     * of {@code bs} holds in {@code other}. Where a page holds one content tag's run the other
     * side is checked against the tag without rendering either, so checking a large tagged
     * transfer costs per page, not per byte; any other content is compared byte for byte.
     */
    boolean sameBytes(AddressSpace as, long va, ContentInspection other, AddressSpace bs, long vb, long len) {
        long[] run = new long[2];
        byte[] mine = null;
        byte[] theirs = null;
        for (PageSpans s = new PageSpans(va, vb, len); s.next(); ) {
            long at = s.at();
            int n = s.n();
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0 && k.memory.tagRun(Kernel.frameOf(pte, at), s.offset(), n, run)) {
                if (!other.verifyTag(bs, s.bt(), n, run[0], run[1])) {
                    return false;
                }
            } else {
                if (mine == null) {
                    mine = new byte[(int) Kernel.PAGE_SIZE];
                    theirs = new byte[(int) Kernel.PAGE_SIZE];
                }
                peek(as, at, mine, 0, n);
                other.peek(bs, s.bt(), theirs, 0, n);
                if (!Arrays.equals(mine, 0, n, theirs, 0, n)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The {@link ContentDigest} of {@code [va, va+len)} as it is now. */
    long digest(AddressSpace as, long va, long len) {
        ContentDigest d = new ContentDigest();
        byte[] buf = null;
        for (PageSpans s = new PageSpans(va, va, len); s.next(); ) {
            long at = s.at();
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0) {
                k.memory.digest(Kernel.frameOf(pte, at), s.offset(), s.n(), d);
            } else {
                if (buf == null) {
                    buf = new byte[(int) Kernel.PAGE_SIZE];
                }
                peek(as, at, buf, 0, s.n());
                d.update(buf, 0, s.n());
            }
        }
        return d.value();
    }
}
