package org.pagefabric.workload;

import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;

/**
 * Fills source buffers with known content and checks destinations against it byte for byte
 * (tagged and literal bytes compare alike), so a stale translation or a lost packet shows up as
 * a failed check, not as a better number. A workload outside this package checks its transfers
 * with it too.
 */
public final class DataCheck {
    private DataCheck() {
    }

    /** Writes a content tag stream over {@code [offset, offset + length)} of the rank's segment. */
    public static void fill(Rank r, long offset, long length, long tag) {
        ProcessMemory mem = r.memory();
        mem.writeTag(r.segment() + offset, length, tag, 0);
    }

    /** Whether two ranges hold the same bytes. */
    public static boolean same(Rank a, long aOffset, Rank b, long bOffset, long length) {
        return a.memory().sameBytes(a.segment() + aOffset, b.memory(), b.segment() + bOffset, length);
    }
}
