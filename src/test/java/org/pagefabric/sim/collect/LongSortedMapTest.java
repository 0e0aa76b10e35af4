package org.pagefabric.sim.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sorted map behaves as a {@link TreeMap}: same lookups, same neighbours, same order. */
class LongSortedMapTest {
    @Test
    void findsFloorAndCeilingPositionsAroundGaps() {
        LongSortedMap<String> m = new LongSortedMap<>();
        m.put(30, "c");
        m.put(10, "a");
        m.put(20, "b");
        assertEquals(-1, m.floorIndex(9));
        assertEquals(0, m.floorIndex(10));
        assertEquals(1, m.floorIndex(29));
        assertEquals(2, m.floorIndex(Long.MAX_VALUE));
        assertEquals(0, m.ceilingIndex(Long.MIN_VALUE));
        assertEquals(1, m.ceilingIndex(11));
        assertEquals(3, m.ceilingIndex(31));
        assertEquals("b", m.value(1));
        assertEquals(20, m.key(1));
        assertEquals("b", m.removeAt(1));
        assertEquals(30, m.key(1));
        assertThrows(IndexOutOfBoundsException.class, () -> m.key(2));
    }

    @Test
    void refusesNullValuesAndReportsAbsence() {
        LongSortedMap<String> m = new LongSortedMap<>();
        assertThrows(NullPointerException.class, () -> m.put(1, null));
        assertNull(m.get(1));
        assertNull(m.remove(1));
        assertTrue(m.isEmpty());
        m.put(1, "x");
        m.clear();
        assertEquals(0, m.size());
        assertNull(m.get(1));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void agreesWithATreeMapOverRandomOperations(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        LongSortedMap<String> m = new LongSortedMap<>();
        TreeMap<Long, String> reference = new TreeMap<>();
        // A narrow key range (some negative) makes hits, misses, replacements and removals all common.
        long range = 10 + rnd.nextInt(1000);
        for (int step = 0; step < 20_000; step++) {
            long key = rnd.nextLong(range) - range / 4;
            switch (rnd.nextInt(5)) {
                case 0, 1 -> {
                    String v = "v" + step;
                    assertEquals(reference.put(key, v), m.put(key, v), "put " + key);
                }
                case 2 -> assertEquals(reference.remove(key), m.remove(key), "remove " + key);
                case 3 -> {
                    Map.Entry<Long, String> floor = reference.floorEntry(key);
                    int i = m.floorIndex(key);
                    if (floor == null) {
                        assertEquals(-1, i, "floor " + key);
                    } else {
                        assertEquals(floor.getKey(), m.key(i), "floor " + key);
                        assertEquals(floor.getValue(), m.value(i));
                    }
                    Map.Entry<Long, String> ceiling = reference.ceilingEntry(key);
                    int j = m.ceilingIndex(key);
                    if (ceiling == null) {
                        assertEquals(m.size(), j, "ceiling " + key);
                    } else {
                        assertEquals(ceiling.getKey(), m.key(j), "ceiling " + key);
                    }
                }
                default -> {
                    assertEquals(reference.get(key), m.get(key), "get " + key);
                    assertEquals(reference.containsKey(key), m.containsKey(key));
                }
            }
            assertEquals(reference.size(), m.size());
        }
        int i = 0;
        for (Map.Entry<Long, String> e : reference.entrySet()) {
            assertEquals(e.getKey(), m.key(i));
            assertEquals(e.getValue(), m.value(i));
            i++;
        }
    }
}
