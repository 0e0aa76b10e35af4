package org.pagefabric.sim.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The int deque behaves as an {@link ArrayDeque} at both ends, through growth and wrap-around. */
class IntDequeTest {
    @Test
    void keepsFifoOrderAndPutsBackAtTheHead() {
        IntDeque q = new IntDeque();
        for (int i = 0; i < 40; i++) {
            q.addLast(i);
        }
        assertEquals(0, q.pollFirst());
        q.addFirst(-1);
        assertEquals(40, q.size());
        assertEquals(-1, q.pollFirst());
        for (int i = 1; i < 40; i++) {
            assertEquals(i, q.pollFirst());
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void refusesToPollAnEmptyDeque() {
        IntDeque q = new IntDeque();
        assertThrows(IllegalStateException.class, q::pollFirst);
        q.addFirst(7);
        assertEquals(7, q.pollFirst());
        assertThrows(IllegalStateException.class, q::pollFirst);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void agreesWithArrayDequeOverRandomOperations(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        IntDeque q = new IntDeque();
        ArrayDeque<Integer> reference = new ArrayDeque<>();
        for (int step = 0; step < 30_000; step++) {
            // Adds slightly outnumber polls, so the deque grows several times and wraps often.
            int op = rnd.nextInt(7);
            if (op < 2) {
                int v = rnd.nextInt();
                q.addLast(v);
                reference.addLast(v);
            } else if (op < 4) {
                int v = rnd.nextInt();
                q.addFirst(v);
                reference.addFirst(v);
            } else if (!reference.isEmpty()) {
                assertEquals(reference.pollFirst(), q.pollFirst(), "step " + step);
            }
            assertEquals(reference.size(), q.size());
            assertEquals(reference.isEmpty(), q.isEmpty());
        }
        while (!reference.isEmpty()) {
            assertEquals(reference.pollFirst(), q.pollFirst());
        }
        assertTrue(q.isEmpty());
    }
}
