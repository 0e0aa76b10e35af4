package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A domain whose device registrations cost more the more device memory it already holds. */
class DomainGrowthTest {
    private static final long GIB = 1L << 30;
    private static final long MS = 1_000_000_000L;

    @Test
    void eachRegistrationPaysForWhatWasHeldBeforeItNotForItself() {
        DomainGrowth d = new DomainGrowth(260 * MS);
        assertEquals(0, d.register(4 * GIB), "the first registration finds the domain empty");
        assertEquals(4 * 260 * MS, d.register(1024));
        assertEquals(4 * GIB + 1024, d.heldBytes());
    }

    @Test
    void smallestFirstCostsLessThanLargestFirstForTheSameBuffers() {
        long[] sizes = {GIB / 1000, 8 * GIB, GIB / 1000, 8 * GIB};
        long ascending = sum(new long[] {sizes[0], sizes[2], sizes[1], sizes[3]});
        long descending = sum(new long[] {sizes[1], sizes[3], sizes[0], sizes[2]});
        assertTrue(ascending < descending / 2, ascending + " ps ascending against " + descending + " descending");
    }

    @Test
    void deregistrationLowersWhatTheNextRegistrationPays() {
        DomainGrowth d = new DomainGrowth(100 * MS);
        d.register(2 * GIB);
        d.register(2 * GIB);
        d.deregister(2 * GIB);
        assertEquals(2 * 100 * MS, d.register(GIB));
    }

    @Test
    void noGrowthLeavesEveryRegistrationFree() {
        DomainGrowth d = new DomainGrowth(0);
        d.register(100 * GIB);
        assertEquals(0, d.register(GIB));
    }

    @Test
    void refusesToDeregisterMoreThanItHolds() {
        DomainGrowth d = new DomainGrowth(MS);
        d.register(GIB);
        assertThrows(IllegalArgumentException.class, () -> d.deregister(2 * GIB));
        assertThrows(IllegalArgumentException.class, () -> d.register(0));
        assertThrows(IllegalArgumentException.class, () -> new DomainGrowth(-1));
    }

    private static long sum(long[] order) {
        DomainGrowth d = new DomainGrowth(260 * MS);
        long total = 0;
        for (long b : order) {
            total += d.register(b);
        }
        return total;
    }
}
