package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reclaim asks the MMU notifiers whether a device used a page (clear_flush_young) before taking it. */
class DeviceYoungTest {
    private static final long PAGE = Kernel.PAGE_SIZE;

    /** A mirror that used a set of pages since reclaim last asked, and forgets that when asked. */
    private static final class Mirror implements MmuInvalidationCallback {
        final Set<Long> used = new HashSet<>();
        int asked;

        @Override
        public void invalidate(MmuIntervalNotifier s, long start, long end, InvalidationReason reason, long seq) {
        }

        @Override
        public boolean clearYoung(MmuIntervalNotifier s, long start, long end) {
            asked++;
            boolean young = false;
            for (long va = start; va < end; va += PAGE) {
                young |= used.remove(va);
            }
            return young;
        }
    }

    /**
     * 16 pages written by the CPU, whose accessed bits a first reclaim clears; then a device uses
     * the first 8 and reclaim must take 8 pages: which 8 depends on whether it hears the device.
     */
    private static long[] reclaimAfterDeviceUse(boolean report) {
        Kernel k = TestKernels.kernel(64, 128, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long a = k.mmap(as, 0, 32 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        for (int i = 0; i < 32; i++) {
            k.write(as, a + i * PAGE, new byte[] {(byte) i}, 0, 1);
        }
        assertEquals(16, k.reclaim(16).reclaimed(), "the first sweep clears the CPU's bits, the second takes 16");
        Mirror m = new Mirror();
        as.subscribe(a, 32 * PAGE, m);
        long[] resident = new long[32];
        int n = 0;
        for (int i = 0; i < 32; i++) {
            if (Pte.has(as.translate(a + i * PAGE), Pte.PRESENT)) {
                resident[n++] = a + i * PAGE;
            }
        }
        assertEquals(16, n);
        for (int i = 0; i < 8 && report; i++) {
            m.used.add(resident[i]);
        }
        assertEquals(8, k.reclaim(8).reclaimed());
        assertTrue(m.asked > 0, "reclaim asked the notifier");
        long[] kept = new long[8];
        for (int i = 0; i < 8; i++) {
            kept[i] = Pte.has(as.translate(resident[i]), Pte.PRESENT) ? 1 : 0;
        }
        return kept;
    }

    @Test
    void pagesADeviceUsedAreSparedWhenTheNotifierReportsThem() {
        long[] reported = reclaimAfterDeviceUse(true);
        long[] silent = reclaimAfterDeviceUse(false);
        for (long r : reported) {
            assertEquals(1, r, "a page the device used stays resident");
        }
        long keptSilent = 0;
        for (long r : silent) {
            keptSilent += r;
        }
        assertTrue(keptSilent < 8, "unreported, reclaim takes pages the device uses: kept " + keptSilent);
    }

    @Test
    void aSubscriptionThatTracksNothingLeavesReclaimAsItWas() {
        MmuNotifiers n = new MmuNotifiers();
        n.subscribe(0, 16 * PAGE, (s, st, en, r, seq) -> { });
        assertFalse(n.clearYoung(0, PAGE));
    }
}
