package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
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
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < f; i++) {
            int slot = d.hit(i);
            slots.add(slot);
            assertEquals(slot, d.hit(i + 3 * f), "bucket " + i + " mod F is found in the same firehose again");
        }
        assertEquals(f, slots.size(), "each of the F mapped buckets has a firehose of its own");
        assertEquals(f, d.size(), "hits map nothing");
    }

    @Test
    void aHitMakesItsFirehoseTheLastToMove() {
        FirehoseTableDriver d = new FirehoseTableDriver(4);
        d.hit(0);
        assertEquals(1, d.move(), "bucket 0 was just used: bucket 1 is the least recently used");
        assertEquals(2, d.move());
        assertEquals(3, d.move());
        assertEquals(0, d.move(), "the hit bucket leaves once every firehose idle longer has");
        assertEquals(4, d.move(), "then the buckets the moves mapped, oldest first");
    }
}
