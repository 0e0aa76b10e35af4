package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.sim.process.Completion;

/** The firehose table: F firehoses per node, reference counts, and the least recently used idle one moves. */
class FirehoseTableTest {
    @Test
    void firehosesAreFoundByNodeAndBucket() {
        FirehoseTable t = new FirehoseTable(3, 4);
        Completion move = new Completion();
        int a = t.attach(1, 10, move);
        int b = t.attach(2, 10, move);
        assertEquals(a, t.find(1, 10));
        assertEquals(b, t.find(2, 10));
        assertEquals(-1, t.find(1, 11));
        assertNotNull(t.moving(a), "pending until its move is done");
        t.settle(a);
        assertNull(t.moving(a));
        assertEquals(1, t.used(1));
        assertEquals(3, t.unused(1));
    }

    @Test
    void idleFirehosesMoveLeastRecentlyUsedFirst() {
        FirehoseTable t = new FirehoseTable(2, 3);
        int[] s = new int[3];
        for (int i = 0; i < 3; i++) {
            s[i] = t.attach(1, 100 + i, null);
        }
        assertEquals(0, t.available(1), "all three in use");
        assertTrue(t.release(s[1]));
        assertTrue(t.release(s[0]));
        assertTrue(t.release(s[2]));
        assertEquals(3, t.idle(1));
        t.acquire(s[0]); // a hit on an idle firehose takes it out of the idle FIFO
        assertEquals(2, t.idle(1));
        assertEquals(101, t.detachOldest(1));
        assertEquals(102, t.detachOldest(1));
        assertEquals(-1, t.detachOldest(1), "bucket 100's firehose is in use");
        assertEquals(-1, t.find(1, 101));
        assertEquals(2, t.unused(1));
        int again = t.attach(1, 7, null);
        assertEquals(again, t.find(1, 7));
        assertEquals(2, t.mapped());
    }

    @Test
    void atMostFPerNodeAndCountsNeverNegative() {
        FirehoseTable t = new FirehoseTable(2, 1);
        int s = t.attach(1, 0, null);
        assertThrows(IllegalStateException.class, () -> t.attach(1, 1, null));
        assertThrows(IllegalStateException.class, () -> t.attach(1, 0, null));
        t.release(s);
        assertThrows(IllegalStateException.class, () -> t.release(s));
        assertThrows(IllegalArgumentException.class, () -> new FirehoseTable(2, 0));
    }

    @Test
    void fFollowsMAndTheNodeCount() {
        FirehoseConfig c = new FirehoseConfig(400L << 20, 50L << 20, 4096);
        assertEquals(102400, c.firehosesPerNode(2));
        assertEquals(102400 / 7, c.firehosesPerNode(8));
        assertEquals(102400 + 12800, c.limitBuckets());
        assertEquals(12800, c.victimBuckets());
        assertThrows(IllegalArgumentException.class, () -> new FirehoseConfig(4096, 100, 4096));
    }
}
