package org.pagefabric.reg.openmx;

import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.os.Kernel;

/**
 * Moves a packet's payload between host frames and the packet, as the Open-MX driver does with
 * the pages it pinned: the sender attaches region data to a pull reply (the Ethernet NIC reads
 * the pinned pages), the receiver's bottom half copies a reply into the pinned target pages
 * (003 §2.2). A run of one content tag travels as the tag, anything else as bytes.
 */
final class FrameIo {
    private final long[] tagAndPos = new long[2];

    /** Fills {@code p} with zero bytes, for a packet whose source pages are gone. */
    void zeros(Packet p) {
        p.hasBytes = false;
        p.contentTag = 0;
        p.tagPosition = 0;
    }

    /**
     * Fills {@code p}'s payload from {@code frames} (page {@code i} of a range starting at
     * page-aligned {@code firstPage}) at virtual address {@code va}.
     */
    void read(PhysicalMemory memory, long[] frames, long firstPage, long va, Packet p) {
        int len = p.length;
        if (len == 0) {
            p.hasBytes = false;
            p.contentTag = 0;
            p.tagPosition = 0;
            return;
        }
        long tag = 0;
        long start = 0;
        long expect = 0;
        boolean run = true;
        for (int done = 0; done < len && run; ) {
            long at = va + done;
            int page = (int) ((at - firstPage) / Kernel.PAGE_SIZE);
            int inPage = (int) (at & (Kernel.PAGE_SIZE - 1));
            int n = (int) Math.min(len - done, Kernel.PAGE_SIZE - inPage);
            if (!memory.tagRun(frames[page], inPage, n, tagAndPos)) {
                run = false;
            } else if (done == 0) {
                tag = tagAndPos[0];
                start = tagAndPos[1];
            } else if (tagAndPos[0] != tag || tagAndPos[1] != expect) {
                run = false;
            }
            expect = tagAndPos[1] + n;
            done += n;
        }
        if (run) {
            p.hasBytes = false;
            p.contentTag = tag;
            p.tagPosition = start;
            return;
        }
        for (int done = 0; done < len; ) {
            long at = va + done;
            int page = (int) ((at - firstPage) / Kernel.PAGE_SIZE);
            int inPage = (int) (at & (Kernel.PAGE_SIZE - 1));
            int n = (int) Math.min(len - done, Kernel.PAGE_SIZE - inPage);
            memory.read(frames[page], inPage, p.bytes, done, n);
            done += n;
        }
        p.hasBytes = true;
    }

    /** Writes {@code p}'s payload into {@code frames} at virtual address {@code va}. */
    void write(PhysicalMemory memory, long[] frames, long firstPage, long va, Packet p) {
        int len = p.length;
        for (int done = 0; done < len; ) {
            long at = va + done;
            int page = (int) ((at - firstPage) / Kernel.PAGE_SIZE);
            int inPage = (int) (at & (Kernel.PAGE_SIZE - 1));
            int n = (int) Math.min(len - done, Kernel.PAGE_SIZE - inPage);
            if (p.hasBytes) {
                memory.write(frames[page], inPage, p.bytes, done, n);
            } else {
                memory.writeTag(frames[page], inPage, n, p.contentTag, p.tagPosition + done);
            }
            done += n;
        }
    }

    /** Copies {@code len} bytes between two frame ranges of one memory (a CPU memcpy). */
    static void copy(PhysicalMemory memory, long[] fromFrames, long fromFirst, long fromVa, long[] toFrames,
                     long toFirst, long toVa, long len) {
        for (long done = 0; done < len; ) {
            long s = fromVa + done;
            long d = toVa + done;
            int n = (int) Math.min(len - done, Math.min(Kernel.PAGE_SIZE - (s & (Kernel.PAGE_SIZE - 1)),
                    Kernel.PAGE_SIZE - (d & (Kernel.PAGE_SIZE - 1))));
            memory.copy(fromFrames[(int) ((s - fromFirst) / Kernel.PAGE_SIZE)], (int) (s & (Kernel.PAGE_SIZE - 1)),
                    toFrames[(int) ((d - toFirst) / Kernel.PAGE_SIZE)], (int) (d & (Kernel.PAGE_SIZE - 1)), n);
            done += n;
        }
    }
}
