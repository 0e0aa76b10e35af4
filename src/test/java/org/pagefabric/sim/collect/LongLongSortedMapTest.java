package org.pagefabric.sim.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sorted long-to-long map behaves as a {@link TreeMap}: same lookups, same neighbours, same order. */
class LongLongSortedMapTest {
    private static final long MISSING = -1;

    @Test
    void refusesToStoreTheMissingValueAndAnswersItForAbsentKeys() {
        LongLongSortedMap m = new LongLongSortedMap(MISSING);
        assertThrows(IllegalArgumentException.class, () -> m.put(3, MISSING));
        assertEquals(MISSING, m.get(3));
        assertEquals(MISSING, m.remove(3));
        assertEquals(MISSING, m.put(3, 30));
        assertEquals(30, m.put(3, 31));
        assertEquals(-1, m.floorIndex(2));
        assertEquals(0, m.floorIndex(3));
        assertEquals(1, m.ceilingIndex(4));
        assertEquals(31, m.removeAt(0));
        assertThrows(IndexOutOfBoundsException.class, () -> m.value(0));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void agreesWithATreeMapOverRandomOperations(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        LongLongSortedMap m = new LongLongSortedMap(MISSING);
        TreeMap<Long, Long> reference = new TreeMap<>();
        long range = 10 + rnd.nextInt(1000);
        for (int step = 0; step < 20_000; step++) {
            long key = rnd.nextLong(range) - range / 4;
            switch (rnd.nextInt(5)) {
                case 0, 1 -> {
                    long v = rnd.nextLong(1, Long.MAX_VALUE);
                    Long old = reference.put(key, v);
                    assertEquals(old == null ? MISSING : old, m.put(key, v), "put " + key);
                }
                case 2 -> {
                    Long old = reference.remove(key);
                    assertEquals(old == null ? MISSING : old, m.remove(key), "remove " + key);
                }
                case 3 -> {
                    Map.Entry<Long, Long> floor = reference.floorEntry(key);
                    int i = m.floorIndex(key);
                    assertEquals(floor == null, i < 0, "floor exists " + key);
                    if (floor != null) {
                        assertEquals(floor.getKey(), m.key(i), "floor " + key);
                        assertEquals(floor.getValue(), m.value(i));
                    }
                    Map.Entry<Long, Long> ceiling = reference.ceilingEntry(key);
                    int j = m.ceilingIndex(key);
                    assertEquals(ceiling == null ? m.size() : j, j, "ceiling " + key);
                    if (ceiling != null) {
                        assertEquals(ceiling.getKey(), m.key(j));
                        assertEquals(ceiling.getValue(), m.value(j));
                    }
                }
                default -> {
                    Long v = reference.get(key);
                    assertEquals(v == null ? MISSING : v, m.get(key), "get " + key);
                }
            }
            assertEquals(reference.size(), m.size());
        }
        int i = 0;
        for (Map.Entry<Long, Long> e : reference.entrySet()) {
            assertEquals(e.getKey(), m.key(i));
            assertEquals(e.getValue(), m.value(i));
            i++;
        }
    }
}
