package org.pagefabric.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** MPI's matching rules, in order, and against a reference model over random sequences. */
class MatchingQueuesTest {
    private static final int ANY_SOURCE = MatchingQueues.ANY_SOURCE;
    private static final int ANY_TAG = MatchingQueues.ANY_TAG;

    @Test
    void aReceiveTakesTheOldestMatchingUnexpectedMessage() {
        MatchingQueues<String, String> q = new MatchingQueues<>();
        assertNull(q.arrive("m1-tag1", 0, 1, 0));
        assertNull(q.arrive("m2-tag2", 0, 2, 0));
        assertNull(q.arrive("m3-tag2", 0, 2, 0));
        assertEquals("m2-tag2", q.post("r-tag2", 0, 2, 0));
        assertEquals("m1-tag1", q.post("r-any", 0, ANY_TAG, 0));
        assertEquals("m3-tag2", q.post("r-any-source", ANY_SOURCE, 2, 0));
        assertEquals(0, q.unexpectedCount());
    }

    @Test
    void aMessageTakesTheOldestMatchingPostedReceiveInItsCommunicatorOnly() {
        MatchingQueues<String, String> q = new MatchingQueues<>();
        assertNull(q.post("r-comm3", 1, 5, 3));
        assertNull(q.post("r-any", ANY_SOURCE, ANY_TAG, 0));
        assertNull(q.post("r-tag5", 1, 5, 0));
        assertEquals("r-any", q.arrive("m", 1, 5, 0));
        assertEquals("r-tag5", q.arrive("m", 1, 5, 0));
        assertEquals("r-comm3", q.arrive("m", 1, 5, 3));
        assertNull(q.arrive("m", 2, 5, 3));
        assertTrue(q.hasPosted(2, 5, 3) == false && q.unexpectedCount() == 1);
    }

    @Test
    void aProbeSeesWithoutTakingAndACancelledReceiveMatchesNothing() {
        MatchingQueues<String, String> q = new MatchingQueues<>();
        assertNull(q.post("r", 0, 9, 0));
        assertTrue(q.cancel("r"));
        assertFalse(q.cancel("r"));
        assertNull(q.arrive("m", 0, 9, 0));
        assertEquals("m", q.probe(ANY_SOURCE, 9, 0));
        assertEquals(1, q.unexpectedCount());
    }

    /** The reference: every entry stamped with its arrival; matching takes the lowest stamp. */
    private static final class Reference {
        record E(int id, int source, int tag, int comm, long stamp) {
        }

        final List<E> posted = new ArrayList<>();
        final List<E> unexpected = new ArrayList<>();
        long clock;

        Integer post(int id, int s, int t, int c) {
            E best = null;
            for (E m : unexpected) {
                if (MatchingQueues.matches(s, t, c, m.source, m.tag, m.comm) && (best == null || m.stamp < best.stamp)) {
                    best = m;
                }
            }
            if (best != null) {
                unexpected.remove(best);
                return best.id;
            }
            posted.add(new E(id, s, t, c, clock++));
            return null;
        }

        Integer arrive(int id, int s, int t, int c) {
            E best = null;
            for (E r : posted) {
                if (MatchingQueues.matches(r.source, r.tag, r.comm, s, t, c) && (best == null || r.stamp < best.stamp)) {
                    best = r;
                }
            }
            if (best != null) {
                posted.remove(best);
                return best.id;
            }
            unexpected.add(new E(id, s, t, c, clock++));
            return null;
        }
    }

    @Test
    void randomSequencesMatchAsTheReferenceDoes() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            MatchingQueues<Integer, Integer> q = new MatchingQueues<>();
            Reference ref = new Reference();
            for (int id = 0; id < 300; id++) {
                int c = rnd.nextInt(2);
                int t = rnd.nextInt(3);
                int s = rnd.nextInt(3);
                if (rnd.nextBoolean()) {
                    int rs = rnd.nextInt(4) == 0 ? ANY_SOURCE : s;
                    int rt = rnd.nextInt(4) == 0 ? ANY_TAG : t;
                    Integer expected = ref.post(id, rs, rt, c);
                    assertEquals(expected, q.post(id, rs, rt, c), "seed " + seed + ", step " + id);
                } else {
                    Integer expected = ref.arrive(id, s, t, c);
                    assertEquals(expected, q.arrive(id, s, t, c), "seed " + seed + ", step " + id);
                }
            }
            assertEquals(ref.posted.size(), q.postedCount());
            assertEquals(ref.unexpected.size(), q.unexpectedCount());
        }
    }

    @Test
    void theSameItemComesBack() {
        MatchingQueues<Object, Object> q = new MatchingQueues<>();
        Object m = new Object();
        q.arrive(m, 0, 0, 0);
        assertSame(m, q.post(new Object(), 0, 0, 0));
    }
}
