package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The benchmark driver keeps a full table through any number of moves, LRU first. */
class FirehoseTableDriverTest {
    @Test
    void movesRecycleTheLeastRecentlyUsedFirehoseAndHitsStillFindTheRest() {
        int f = 1000;
        FirehoseTableDriver d = new FirehoseTableDriver(f);
        assertEquals(f, d.size());
        for (int i = 0; i < 50 * f; i++) {
            assertEquals(i, d.move(), "the oldest bucket leaves first");
            assertEquals(f, d.size());
        }
        for (int i = 0; i < 3 * f; i++) {
            assertTrue(d.hit(i * 7919) >= 0);
        }
    }
}
