package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.sim.stat.StatisticsRegistry;

/** fork under the two kernel behaviours for pinned pages, and MADV_DONTFORK. */
class ForkPinnedPagesTest {
    private static final long PAGE = Kernel.PAGE_SIZE;
    private final OsCosts c = TestKernels.costs();

    private static Kernel kernel(ForkPinnedPages fork) {
        return new Kernel(new PhysicalMemory(1024 * PAGE), new Swap(0), TestKernels.costs(),
                KernelConfig.linux(ThpMode.NEVER, fork), new StatisticsRegistry(() -> 0L), "node0.os");
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    @Test
    void sharedCowLeavesThePinnedPageToTheChildWhenTheParentWritesFirst() {
        Kernel k = kernel(ForkPinnedPages.SHARED_COW);
        AddressSpace parent = k.createProcess(1 << 20, false);
        long a = k.mmap(parent, 0, PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(parent, a, bytes(64, 1), 0, 64);
        long pinned = k.getUserPages(parent, a, 1, true).frames()[0];
        ForkResult fr = k.fork(parent);
        assertEquals(c.forkBasePs() + c.forkPerPagePs() + c.tlbShootdownPs(), fr.costPs(),
                "no early copy: one entry write-protected, one flush");
        AddressSpace child = fr.child();
        assertEquals(pinned, Pte.frame(child.translate(a)), "the child shares the pinned page");
        k.write(parent, a, bytes(64, 2), 0, 64);
        assertNotEquals(pinned, Pte.frame(parent.translate(a)), "the parent's write moved it off the pinned page");
        k.write(child, a, bytes(64, 3), 0, 64);
        assertEquals(pinned, Pte.frame(child.translate(a)), "the child, now the only mapper, reuses it");
        assertTrue(k.memory().frames().pinCount(pinned) > 0);
        byte[] device = new byte[64];
        k.memory().read(pinned, 0, device, 0, 64);
        assertArrayEquals(bytes(64, 3), device, "what the device reads is the child's data");
    }

    @Test
    void earlyCopyChargesOnePageCopyPerPinnedPage() {
        Kernel k = kernel(ForkPinnedPages.EARLY_COPY);
        AddressSpace parent = k.createProcess(1 << 20, false);
        long a = k.mmap(parent, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        k.getUserPages(parent, a, 3, true);
        ForkResult fr = k.fork(parent);
        assertEquals(c.forkBasePs() + 4 * c.forkPerPagePs() + 3 * c.cowCopyPerPagePs() + c.tlbShootdownPs(),
                fr.costPs());
        assertEquals(Fault.NONE, k.touch(parent, a + 2 * PAGE, true), "pinned pages stay writable in the parent");
        assertEquals(FaultKind.COW, k.touch(parent, a + 3 * PAGE, true).kind(), "the unpinned one is shared");
    }

    @Test
    void dontForkLeavesTheRangeOutOfTheChildAndTheParentUntouched() {
        Kernel k = kernel(ForkPinnedPages.SHARED_COW);
        AddressSpace parent = k.createProcess(1 << 20, false);
        long a = k.mmap(parent, 0, 2 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long pinned = k.getUserPages(parent, a, 1, true).frames()[0];
        k.madvise(parent, a, PAGE, Advice.DONTFORK);
        List<InvalidationReason> seen = new ArrayList<>();
        parent.subscribe(a, PAGE, (s, st, en, r, seq) -> seen.add(r));
        AddressSpace child = k.fork(parent).child();
        assertEquals(List.of(), seen, "the DONTFORK range is not write-protected");
        assertEquals(FaultKind.SEGV_MAPERR, k.touch(child, a, false).kind(), "the child has nothing there");
        assertEquals(Fault.NONE, k.touch(parent, a, true));
        assertEquals(pinned, Pte.frame(parent.translate(a)));
        assertEquals(FaultKind.COW, k.touch(child, a + PAGE, true).kind(), "the rest of the mapping is inherited");
        k.madvise(parent, a, PAGE, Advice.DOFORK);
        AddressSpace second = k.fork(parent).child();
        assertEquals(FaultKind.COW, k.touch(second, a, true).kind(), "DOFORK undoes it");
    }

    /**
     * Random sequences of writes, forks, child writes and exits over a partly pinned buffer: the
     * device's pages stay the parent's under the early copy, and under the old behaviour when the
     * pinned range is MADV_DONTFORK; every child reads what the parent held at its fork.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89})
    void theDeviceKeepsTheParentsPagesWhereTheKernelOrDontForkProtectsThem(long seed) {
        for (ForkPinnedPages behaviour : ForkPinnedPages.values()) {
            for (boolean dontFork : new boolean[] {false, true}) {
                boolean protectedPins = behaviour == ForkPinnedPages.EARLY_COPY || dontFork;
                boolean diverged = run(seed, behaviour, dontFork);
                if (protectedPins) {
                    assertFalse(diverged, behaviour + " dontfork=" + dontFork + " seed " + seed);
                }
            }
        }
    }

    @Test
    void theOldBehaviourWithoutDontForkDivergesOnSomeSequence() {
        boolean any = false;
        for (long seed : new long[] {1, 2, 3, 5, 8, 13, 21, 34, 55, 89}) {
            any |= run(seed, ForkPinnedPages.SHARED_COW, false);
        }
        assertTrue(any, "the property above could not fail if no sequence diverged without protection");
    }

    /** Runs one random sequence; true if a pinned page ever stopped being the parent's. */
    private static boolean run(long seed, ForkPinnedPages behaviour, boolean dontFork) {
        int pages = 8;
        int pinnedPages = 4;
        SplittableRandom rnd = new SplittableRandom(seed);
        Kernel k = kernel(behaviour);
        AddressSpace parent = k.createProcess(1 << 20, false);
        long a = k.mmap(parent, 0, pages * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long[] pinned = k.getUserPages(parent, a, pinnedPages, true).frames();
        if (dontFork) {
            k.madvise(parent, a, pinnedPages * PAGE, Advice.DONTFORK);
        }
        List<AddressSpace> children = new ArrayList<>();
        List<long[]> snapshots = new ArrayList<>();
        boolean diverged = false;
        int stamp = 0;
        for (int step = 0; step < 60; step++) {
            int op = rnd.nextInt(4);
            int page = rnd.nextInt(pages);
            switch (op) {
                case 0 -> k.write(parent, a + page * PAGE, bytes(16, ++stamp), 0, 16);
                case 1 -> {
                    children.add(k.fork(parent).child());
                    snapshots.add(digests(k, parent, a, pages));
                }
                case 2 -> {
                    if (!children.isEmpty()) {
                        int i = rnd.nextInt(children.size());
                        AddressSpace child = children.get(i);
                        boolean mapped = child.vma(a + page * PAGE) != null;
                        if (mapped) {
                            k.write(child, a + page * PAGE, bytes(16, ++stamp), 0, 16);
                            snapshots.get(i)[page] = k.digest(child, a + page * PAGE, PAGE);
                        }
                    }
                }
                default -> {
                    if (!children.isEmpty()) {
                        int i = rnd.nextInt(children.size());
                        AddressSpace child = children.remove(i);
                        long[] expected = snapshots.remove(i);
                        for (int p = 0; p < pages; p++) {
                            if (child.vma(a + p * PAGE) != null) {
                                assertEquals(expected[p], k.digest(child, a + p * PAGE, PAGE),
                                        "child page " + p + " holds what the parent held at fork, seed " + seed);
                            }
                        }
                        k.exit(child);
                    }
                }
            }
            for (int p = 0; p < pinnedPages; p++) {
                long pte = parent.translate(a + p * PAGE);
                diverged |= (pte & Pte.PRESENT) == 0 || Pte.frame(pte) != pinned[p];
            }
        }
        return diverged;
    }

    private static long[] digests(Kernel k, AddressSpace as, long a, int pages) {
        long[] d = new long[pages];
        for (int p = 0; p < pages; p++) {
            d[p] = k.digest(as, a + p * PAGE, PAGE);
        }
        return d;
    }
}
