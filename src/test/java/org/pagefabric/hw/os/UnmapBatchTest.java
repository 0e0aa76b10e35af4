package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reclaim and migration unmapping several adjacent pages under one MMU-notifier range. */
class UnmapBatchTest {
    private static final long PAGE = Kernel.PAGE_SIZE;

    private static byte[] bytes(int seed) {
        byte[] b = new byte[4096];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (seed * 13 + i);
        }
        return b;
    }

    /** Writes 32 pages, reclaims them all; returns the ranges the notifier saw. */
    private static List<long[]> reclaimAll(int batch, Kernel[] kernel, long[] base) {
        Kernel k = TestKernels.kernel(64, 128, ThpMode.NEVER, batch);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 32 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        for (int i = 0; i < 32; i++) {
            k.write(as, a + i * PAGE, bytes(i), 0, 4096);
        }
        List<long[]> ranges = new ArrayList<>();
        as.subscribe(a, 32 * PAGE, (s, st, en, r, seq) -> ranges.add(new long[] {st, en}));
        assertEquals(32, k.reclaim(32).reclaimed());
        kernel[0] = k;
        base[0] = a;
        return ranges;
    }

    @Test
    void oneRangePerPageUnbatchedAndOnePerRunBatched() {
        Kernel[] k = new Kernel[1];
        long[] a = new long[1];
        assertEquals(32, reclaimAll(1, k, a).size(), "try_to_unmap_one: one notification per page");
        long perPage = k[0].stats().invalidations();
        List<long[]> batched = reclaimAll(8, k, a);
        assertEquals(4, batched.size(), "32 adjacent pages in batches of 8");
        for (long[] r : batched) {
            assertEquals(8 * PAGE, r[1] - r[0]);
        }
        assertTrue(k[0].stats().invalidations() < perPage);
        AddressSpace as = k[0].spaces().get(0);
        for (int i = 0; i < 32; i++) {
            byte[] got = new byte[4096];
            k[0].read(as, a[0] + i * PAGE, got, 0, 4096);
            assertArrayEquals(bytes(i), got, "page " + i + " comes back from swap intact");
        }
    }

    @Test
    void runsBreakAtGapsSoNoUnreclaimedPageIsInvalidated() {
        Kernel k = TestKernels.kernel(64, 128, ThpMode.NEVER, 16);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 16 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        for (int i = 0; i < 16; i++) {
            k.write(as, a + i * PAGE, bytes(i), 0, 4096);
        }
        k.mlock(as, a + 5 * PAGE, PAGE);
        List<long[]> ranges = new ArrayList<>();
        as.subscribe(a, 16 * PAGE, (s, st, en, r, seq) -> ranges.add(new long[] {st, en}));
        assertEquals(15, k.reclaim(16).reclaimed());
        for (long[] r : ranges) {
            assertTrue(r[1] <= a + 5 * PAGE || r[0] >= a + 6 * PAGE, "the locked page stays out of every range");
        }
        assertEquals(2, ranges.size());
        assertTrue(Pte.has(as.translate(a + 5 * PAGE), Pte.PRESENT));
    }

    @Test
    void migrateRangeBatchesAdjacentPagesAndSkipsPinnedOnes() {
        for (int batch : new int[] {1, 8}) {
            Kernel k = TestKernels.kernel(256, 0, ThpMode.NEVER, batch);
            AddressSpace as = k.createProcess(1 << 20, false);
            long a = k.mmap(as, 0, 16 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
            for (int i = 0; i < 16; i++) {
                k.write(as, a + i * PAGE, bytes(i), 0, 4096);
            }
            PinResult pin = k.getUserPages(as, a + 3 * PAGE, 1, true);
            long pinned = pin.frames()[0];
            int[] calls = new int[1];
            as.subscribe(a, 16 * PAGE, (s, st, en, r, seq) -> calls[0]++);
            MigrateResult r = k.migrateRange(as, a, 16);
            assertEquals(15, r.moved(), "batch " + batch);
            assertEquals(batch == 1 ? 15 : 3, calls[0], "batch " + batch + ": pages 0-2, then 4-11 and 12-15");
            assertEquals(pinned, Pte.frame(as.translate(a + 3 * PAGE)), "the pinned page did not move");
            for (int i = 0; i < 16; i++) {
                byte[] got = new byte[4096];
                k.read(as, a + i * PAGE, got, 0, 4096);
                assertArrayEquals(bytes(i), got);
            }
        }
    }
}
