package org.pagefabric.reg.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.RandomStream;

/** Holds come back per buffer, oldest first, and a buffer is its address and its length together. */
class BufferHoldsTest {
    @Test
    void eachBufferGivesBackItsHoldsOldestFirst() {
        BufferHolds<String> h = new BufferHolds<>();
        h.add(0x1000, 64, "a1");
        h.add(0x1000, 128, "b1");
        h.add(0x1000, 64, "a2");
        h.add(0x2000, 64, "c1");
        assertEquals(4, h.size());
        assertEquals("a1", h.poll(0x1000, 64));
        assertEquals("b1", h.poll(0x1000, 128), "same address, another length: another buffer");
        assertNull(h.poll(0x1000, 128));
        assertEquals("a2", h.poll(0x1000, 64));
        assertNull(h.poll(0x1000, 64));
        assertNull(h.poll(0x3000, 64), "never held");
        assertEquals(1, h.size());
        h.add(0x1000, 64, "a3");
        assertEquals("a3", h.poll(0x1000, 64), "an emptied buffer holds again");
    }

    @Test
    void randomHoldsAgreeWithAMapOfQueues() {
        RandomStream random = new RandomStream(7);
        BufferHolds<Integer> h = new BufferHolds<>();
        Map<String, ArrayDeque<Integer>> model = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            long va = random.nextInt(8) * 64L;
            long length = 1 + random.nextInt(3);
            String key = va + "+" + length;
            if (random.nextBoolean(0.5)) {
                h.add(va, length, i);
                model.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(i);
            } else {
                ArrayDeque<Integer> q = model.get(key);
                assertEquals(q == null ? null : q.pollFirst(), h.poll(va, length), "operation " + i);
            }
        }
        assertEquals(model.values().stream().mapToInt(ArrayDeque::size).sum(), h.size());
    }
}
