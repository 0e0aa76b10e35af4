package org.pagefabric.workload;

import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;

/**
 * Fills source buffers with known content and checks destinations against it, through the
 * memory model's content digest (tagged and literal bytes digest alike), so a stale translation
 * or a lost packet shows up as a failed check, not as a better number.
 */
final class DataCheck {
    private DataCheck() {
    }

    /** Writes a content tag stream over {@code [offset, offset + length)} of the rank's segment. */
    static void fill(Rank r, long offset, long length, long tag) {
        Kernel k = r.node().kernel();
        k.writeTag(r.process(), r.segment() + offset, length, tag, 0);
    }

    /** Whether two ranges hold the same bytes. */
    static boolean same(Rank a, long aOffset, Rank b, long bOffset, long length) {
        long da = a.node().kernel().digest(a.process(), a.segment() + aOffset, length);
        long db = b.node().kernel().digest(b.process(), b.segment() + bOffset, length);
        return da == db;
    }
}
