package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An exporter moving a whole device-memory buffer: refused while pinned, one invalidation otherwise. */
class DeviceMemoryMoveTest {
    private static final long PAGE = Kernel.PAGE_SIZE;
    private final OsCosts c = TestKernels.costs();

    @Test
    void aMoveRepointsEveryPageUnderOneInvalidationAndKeepsTheContent() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        k.writeTag(as, a, 4 * PAGE, 77, 0);
        long before = Pte.frame(as.translate(a + PAGE));
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(a, 4 * PAGE, (s, st, en, r, seq) -> seen.add(r));
        PageOpResult r = k.moveDeviceBuffer(as, a, 4 * PAGE);
        assertTrue(r.done());
        assertEquals(List.of(InvalidationReason.MIGRATE), seen, "one move_notify for the whole buffer");
        assertEquals(c.tlbShootdownPs() + c.notifierInvalidatePs() + 4 * c.migratePerPagePs(), r.costPs());
        assertNotEquals(before, Pte.frame(as.translate(a + PAGE)));
        assertTrue(k.verifyTag(as, a, 4 * PAGE, 77, 0));
        assertEquals(4, k.memory().usedFrames(), "the old frames are freed");
    }

    @Test
    void aPinnedPageRefusesTheWholeMove() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long first = Pte.frame(as.translate(a));
        k.getUserPages(as, a + 3 * PAGE, 1, true);
        List<InvalidationReason> seen = new ArrayList<>();
        as.subscribe(a, 4 * PAGE, (s, st, en, r, seq) -> seen.add(r));
        PageOpResult r = k.moveDeviceBuffer(as, a, 4 * PAGE);
        assertEquals(Errno.EBUSY, r.error());
        assertEquals(List.of(), seen);
        assertEquals(first, Pte.frame(as.translate(a)), "nothing moved, not even the unpinned pages");
    }

    /**
     * Random writes, pins, unpins and moves: a move never changes what the buffer holds, happens
     * exactly when nothing in it is pinned, and a pinned page's frame never changes.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
    void movesKeepContentAndNeverTouchAPinnedBuffer(long seed) {
        run(seed);
    }

    @Test
    void theSequencesBothMoveAndRefuse() {
        int[] total = new int[2];
        for (long seed : new long[] {1, 2, 3, 5, 8, 13, 21, 34}) {
            int[] r = run(seed);
            total[0] += r[0];
            total[1] += r[1];
        }
        assertTrue(total[0] > 0 && total[1] > 0, "moves " + total[0] + ", refusals " + total[1]
                + ": the property above could not fail unless both happen");
    }

    /** One random sequence; returns the moves done and refused. */
    private int[] run(long seed) {
        int pages = 6;
        SplittableRandom rnd = new SplittableRandom(seed);
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, pages * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long[] pinnedFrame = new long[pages];
        int pinned = 0;
        int[] moves = new int[2];
        for (int step = 0; step < 80; step++) {
            int page = rnd.nextInt(pages);
            int op = rnd.nextInt(10);
            switch (op < 3 ? 0 : op < 4 ? 1 : op < 7 ? 2 : 3) {
                case 0 -> k.writeTag(as, a + page * PAGE, 100, step, 0);
                case 1 -> {
                    if (pinnedFrame[page] == 0) {
                        pinnedFrame[page] = k.getUserPages(as, a + page * PAGE, 1, true).frames()[0];
                        pinned++;
                    }
                }
                case 2 -> {
                    if (pinnedFrame[page] != 0) {
                        k.putPage(pinnedFrame[page]);
                        pinnedFrame[page] = 0;
                        pinned--;
                    }
                }
                default -> {
                    long digest = k.digest(as, a, pages * PAGE);
                    PageOpResult r = k.moveDeviceBuffer(as, a, pages * PAGE);
                    assertEquals(pinned == 0, r.done(), "seed " + seed + " step " + step);
                    assertEquals(digest, k.digest(as, a, pages * PAGE), "a move keeps the content, seed " + seed);
                    moves[r.done() ? 0 : 1]++;
                }
            }
            for (int p = 0; p < pages; p++) {
                if (pinnedFrame[p] != 0) {
                    assertEquals(pinnedFrame[p], Pte.frame(as.translate(a + p * PAGE)), "seed " + seed);
                }
            }
        }
        return moves;
    }
}
