package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MmuNotifiersTest {
    @Test
    void readRetryIsTrueExactlyAfterAnOverlappingInvalidation() {
        MmuNotifiers n = new MmuNotifiers();
        List<String> calls = new ArrayList<>();
        MmuIntervalNotifier a = n.subscribe(0x1000, 0x1000, (s, st, en, r, seq) -> calls.add("a " + st + " " + en));
        MmuIntervalNotifier b = n.subscribe(0x3000, 0x2000, (s, st, en, r, seq) -> calls.add("b " + st + " " + en));
        long sa = a.readBegin();
        long sb = b.readBegin();
        n.invalidateStart(0x2000, 0x3000, InvalidationReason.UNMAP);
        n.invalidateEnd(0x2000, 0x3000, InvalidationReason.UNMAP);
        assertFalse(a.readRetry(sa), "adjacent ranges do not overlap");
        assertFalse(b.readRetry(sb));
        assertEquals(List.of(), calls);
        assertEquals(2, n.invalidateStart(0x1800, 0x3800, InvalidationReason.MIGRATE));
        assertThrows(IllegalStateException.class, a::readBegin, "read_begin inside an invalidation deadlocks on Linux");
        n.invalidateEnd(0x1800, 0x3800, InvalidationReason.MIGRATE);
        assertEquals(List.of("a 6144 8192", "b 12288 14336"), calls, "clipped, in address order");
        assertTrue(a.readRetry(sa));
        assertTrue(b.readRetry(sb));
        long again = a.readBegin();
        assertFalse(a.readRetry(again));
    }

    @Test
    void removedSubscriptionsHearNothingAndCallbacksMayRemoveThemselves() {
        MmuNotifiers n = new MmuNotifiers();
        int[] hits = new int[2];
        MmuIntervalNotifier[] self = new MmuIntervalNotifier[1];
        self[0] = n.subscribe(0, 100, (s, st, en, r, seq) -> {
            hits[0]++;
            s.remove();
        });
        MmuIntervalNotifier other = n.subscribe(50, 100, (s, st, en, r, seq) -> hits[1]++);
        n.invalidateStart(0, 200, InvalidationReason.UNMAP);
        n.invalidateEnd(0, 200, InvalidationReason.UNMAP);
        n.invalidateStart(0, 200, InvalidationReason.UNMAP);
        n.invalidateEnd(0, 200, InvalidationReason.UNMAP);
        assertEquals(1, hits[0]);
        assertEquals(2, hits[1]);
        assertTrue(self[0].removed());
        other.remove();
        assertEquals(0, n.size());
    }

    @Test
    void kernelOperationsReportTheirReasons() {
        Kernel k = TestKernels.kernel(4096, 64, ThpMode.NEVER);
        AddressSpace as = k.createProcess(1 << 20, false);
        long a = k.mmap(as, 0, 4 * Kernel.PAGE_SIZE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        List<InvalidationReason> seen = new ArrayList<>();
        MmuIntervalNotifier sub = as.subscribe(a, 4 * Kernel.PAGE_SIZE, (s, st, en, r, seq) -> seen.add(r));
        long seq = sub.readBegin();
        k.touch(as, a, true);
        k.getUserPages(as, a, 2, true);
        assertFalse(sub.readRetry(seq), "faults on present pages and pins change no mapping");
        k.mprotect(as, a, Kernel.PAGE_SIZE, Prot.READ);
        k.migrate(as, a + 3 * Kernel.PAGE_SIZE);
        k.fork(as);
        k.madvise(as, a + 2 * Kernel.PAGE_SIZE, Kernel.PAGE_SIZE, Advice.DONTNEED);
        k.munmap(as, a, 4 * Kernel.PAGE_SIZE);
        assertEquals(List.of(InvalidationReason.PROTECTION, InvalidationReason.MIGRATE, InvalidationReason.FORK,
                InvalidationReason.DONTNEED, InvalidationReason.UNMAP), seen);
        assertTrue(sub.readRetry(seq));
    }
}
