package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.sim.stat.StatisticsRegistry;

/** vm.max_map_count, MADV_DONTFORK/DOFORK splits and merges, and libibverbs' fork protection. */
class MapCountTest {
    private static final long P = Kernel.PAGE_SIZE;

    private static Kernel kernel(int maxMapCount) {
        return new Kernel(new PhysicalMemory(4096 * P), new Swap(0), TestKernels.costs(),
                KernelConfig.linux(ThpMode.NEVER, maxMapCount), new StatisticsRegistry(() -> 0L), "node0.os");
    }

    @Test
    void dontforkSplitsAndDoforkMergesBack() {
        Kernel k = kernel(KernelConfig.LINUX_MAX_MAP_COUNT);
        AddressSpace as = k.createProcess(Long.MAX_VALUE, false);
        long base = k.mmap(as, 0, 64 * P, Prot.READ_WRITE, 0).address();
        assertEquals(1, k.mapCount(as));
        k.madvise(as, base + 8 * P, 4 * P, Advice.DONTFORK);
        assertEquals(3, k.mapCount(as));
        k.madvise(as, base + 12 * P, 4 * P, Advice.DONTFORK);
        assertEquals(3, k.mapCount(as), "an adjacent range with the same flags merges");
        k.madvise(as, base + 8 * P, 8 * P, Advice.DOFORK);
        assertEquals(1, k.mapCount(as));
    }

    @Test
    void aSplitPastTheLimitFailsWithEnomem() {
        Kernel k = kernel(4);
        AddressSpace as = k.createProcess(Long.MAX_VALUE, false);
        long base = k.mmap(as, 0, 64 * P, Prot.READ_WRITE, 0).address();
        k.madvise(as, base + 8 * P, P, Advice.DONTFORK); // 3 VMAs
        OsException e = assertThrows(OsException.class, () -> k.madvise(as, base + 32 * P, P, Advice.DONTFORK));
        assertEquals(Errno.ENOMEM, e.errno());
        assertEquals(3, k.mapCount(as), "a refused advice changes nothing");
    }

    @Test
    void doforkKeepsPagesAnotherRegistrationHolds() {
        Kernel k = kernel(KernelConfig.LINUX_MAX_MAP_COUNT);
        AddressSpace as = k.createProcess(Long.MAX_VALUE, false);
        long base = k.mmap(as, 0, 64 * P, Prot.READ_WRITE, 0).address();
        DontforkRanges r = as.dontforkRanges();
        r.dontfork(base + 8 * P, 4 * P);
        r.dontfork(base + 10 * P, 4 * P);
        r.dofork(base + 8 * P, 4 * P);
        assertEquals(4, r.heldPages());
        assertEquals(3, k.mapCount(as), "pages 10..13 stay DONTCOPY: one VMA between two");
        r.dofork(base + 10 * P, 4 * P);
        assertEquals(1, k.mapCount(as));
    }

    /** Random register/deregister sequences: after every range is released, the mapping is one VMA again. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void everyReleasedRegistrationHealsItsSplits(long seed) {
        Random rnd = new Random(seed);
        Kernel k = kernel(KernelConfig.LINUX_MAX_MAP_COUNT);
        AddressSpace as = k.createProcess(Long.MAX_VALUE, false);
        long base = k.mmap(as, 0, 256 * P, Prot.READ_WRITE, 0).address();
        DontforkRanges r = as.dontforkRanges();
        java.util.ArrayDeque<long[]> live = new java.util.ArrayDeque<>();
        for (int i = 0; i < 300; i++) {
            if (live.isEmpty() || rnd.nextBoolean()) {
                long start = base + rnd.nextInt(250) * P;
                long len = (1 + rnd.nextInt(6)) * P;
                r.dontfork(start, len);
                live.add(new long[] {start, len});
            } else {
                long[] g = rnd.nextBoolean() ? live.pollFirst() : live.pollLast();
                r.dofork(g[0], g[1]);
            }
            assertTrue(k.mapCount(as) <= 2 * live.size() + 1, "at most two splits per live registration");
        }
        while (!live.isEmpty()) {
            long[] g = live.poll();
            r.dofork(g[0], g[1]);
        }
        assertEquals(0, r.heldPages());
        assertEquals(1, k.mapCount(as));
    }
}
