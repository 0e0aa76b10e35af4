package org.pagefabric.sim.collect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The record queue behaves as an {@link ArrayDeque} of four-long records, through growth and wrap-around. */
class LongQuadQueueTest {
    @Test
    void returnsRecordsInOrderWithAllFourFields() {
        LongQuadQueue q = new LongQuadQueue();
        for (long i = 0; i < 50; i++) {
            q.add(i, -i, Long.MAX_VALUE - i, Long.MIN_VALUE + i);
        }
        assertEquals(50, q.size());
        for (long i = 0; i < 50; i++) {
            assertArrayEquals(new long[] {i, -i, Long.MAX_VALUE - i, Long.MIN_VALUE + i}, head(q));
            q.remove();
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void refusesToReadOrRemoveFromAnEmptyQueue() {
        LongQuadQueue q = new LongQuadQueue();
        assertThrows(NoSuchElementException.class, () -> q.head(0));
        assertThrows(NoSuchElementException.class, q::remove);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void agreesWithArrayDequeOverRandomOperations(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        LongQuadQueue q = new LongQuadQueue();
        ArrayDeque<long[]> reference = new ArrayDeque<>();
        for (int step = 0; step < 30_000; step++) {
            // Bursts of adds and of removes: the queue grows while its head is in the middle of the ring.
            if (rnd.nextInt(5) < 3) {
                long[] r = {rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextLong()};
                q.add(r[0], r[1], r[2], r[3]);
                reference.addLast(r);
            } else if (!reference.isEmpty()) {
                assertArrayEquals(reference.pollFirst(), head(q), "step " + step);
                q.remove();
            }
            assertEquals(reference.size(), q.size());
            if (step % 97 == 0) {
                // every record, read in place, is the reference's in order
                int i = 0;
                for (long[] r : reference) {
                    assertEquals(r[i % 4], q.get(i, i % 4), "step " + step + " record " + i);
                    i++;
                }
            }
        }
        while (!reference.isEmpty()) {
            assertArrayEquals(reference.pollFirst(), head(q));
            q.remove();
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void getOutsideTheQueueIsRefused() {
        LongQuadQueue q = new LongQuadQueue();
        q.add(1, 2, 3, 4);
        assertEquals(3, q.get(0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> q.get(1, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> q.get(-1, 0));
    }

    private static long[] head(LongQuadQueue q) {
        return new long[] {q.head(0), q.head(1), q.head(2), q.head(3)};
    }
}
