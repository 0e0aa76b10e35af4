package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The local bucket table: reference counts, lazy deregistration through the victim FIFO, and its bounds. */
class BucketTableTest {
    private static void pin(BucketTable t, int b, boolean remote) {
        t.beginPin(b, remote);
        t.finishPin(b);
    }

    @Test
    void unreferencedBucketsStayPinnedInTheFifoOldestEvictedFirst() {
        BucketTable t = new BucketTable(16, 8, 4);
        pin(t, 1, true);
        pin(t, 2, true);
        pin(t, 3, false);
        assertEquals(3, t.pinned());
        assertTrue(t.release(2, true));
        assertTrue(t.release(1, true));
        assertTrue(t.release(3, false));
        assertEquals(3, t.fifoLength());
        assertEquals(3, t.pinned(), "lazy deregistration: still pinned");
        assertTrue(t.inFifo(1));
        // Reusing a FIFO bucket costs no pin and takes it out of the FIFO.
        assertTrue(t.acquire(1, false));
        assertFalse(t.inFifo(1));
        assertEquals(2, t.fifoLength());
        assertEquals(2, t.evictOldest(), "bucket 2 was released first");
        assertEquals(BucketTable.UNPINNED, t.state(2));
        assertEquals(3, t.evictOldest());
        assertEquals(-1, t.evictOldest(), "bucket 1 is in use, the FIFO is empty");
        t.audit();
    }

    @Test
    void sharedBucketsNeedEveryReferenceReleased() {
        BucketTable t = new BucketTable(4, 4, 2);
        pin(t, 0, true);
        assertFalse(t.acquire(0, true), "a second firehose on a referenced bucket");
        assertFalse(t.acquire(0, false), "a local operation on it");
        assertEquals(2, t.remoteRefs(0));
        assertEquals(1, t.localRefs(0));
        assertFalse(t.release(0, true));
        assertFalse(t.release(0, false));
        assertTrue(t.release(0, true));
        assertTrue(t.inFifo(0));
        t.audit();
    }

    @Test
    void theFifoReportsWhenItHoldsMoreThanMaxVictim() {
        BucketTable t = new BucketTable(8, 8, 2);
        for (int b = 0; b < 3; b++) {
            pin(t, b, true);
        }
        for (int b = 0; b < 3; b++) {
            t.release(b, true);
        }
        assertTrue(t.fifoOverLimit());
        assertEquals(0, t.evictOldest());
        assertFalse(t.fifoOverLimit());
    }

    @Test
    void boundsAreEnforced() {
        BucketTable t = new BucketTable(8, 2, 1);
        pin(t, 0, true);
        pin(t, 1, true);
        assertTrue(t.full());
        assertThrows(IllegalStateException.class, () -> t.beginPin(2, true), "M + MAXVICTIM");
        assertThrows(IllegalStateException.class, () -> t.release(3, true), "unpinned bucket, count would go negative");
        assertThrows(IllegalStateException.class, () -> t.release(0, false), "no local reference to drop");
        t.acquire(0, false);
        assertThrows(IllegalStateException.class, () -> t.acquire(1, false), "MAXVICTIM of local references");
        assertThrows(IllegalStateException.class, () -> t.acquire(5, true), "not pinned");
        t.audit();
    }

    @Test
    void aPendingBucketCannotLoseItsLastReference() {
        BucketTable t = new BucketTable(4, 4, 2);
        t.beginPin(0, true);
        assertEquals(BucketTable.PENDING, t.state(0));
        assertThrows(IllegalStateException.class, () -> t.release(0, true));
    }
}
