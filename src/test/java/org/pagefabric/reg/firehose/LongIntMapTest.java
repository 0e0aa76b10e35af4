package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.RandomStream;

/** The primitive map behaves as a map through growth and backward-shift deletions. */
class LongIntMapTest {
    @Test
    void agreesWithAHashMapOverRandomOperations() {
        for (long seed = 1; seed <= 5; seed++) {
            RandomStream r = new RandomStream(seed);
            LongIntMap map = new LongIntMap(4);
            Map<Long, Integer> ref = new HashMap<>();
            for (int i = 0; i < 50_000; i++) {
                // A small key space, so inserts, hits and removals all happen often.
                long key = ((long) r.nextInt(4) << 40) | r.nextInt(2000);
                switch (r.nextInt(3)) {
                    case 0 -> {
                        int v = r.nextInt(1 << 20);
                        map.put(key, v);
                        ref.put(key, v);
                    }
                    case 1 -> {
                        Integer old = ref.remove(key);
                        assertEquals(old == null ? LongIntMap.ABSENT : old, map.remove(key));
                    }
                    default -> assertEquals(ref.getOrDefault(key, LongIntMap.ABSENT), map.get(key));
                }
                assertEquals(ref.size(), map.size());
            }
            for (Map.Entry<Long, Integer> e : ref.entrySet()) {
                assertEquals(e.getValue(), map.get(e.getKey()));
            }
        }
    }

    @Test
    void refusesItsSentinels() {
        LongIntMap map = new LongIntMap(8);
        assertThrows(IllegalArgumentException.class, () -> map.put(-1, 3));
        assertThrows(IllegalArgumentException.class, () -> map.put(3, -1));
        assertEquals(LongIntMap.ABSENT, map.remove(42));
    }
}
