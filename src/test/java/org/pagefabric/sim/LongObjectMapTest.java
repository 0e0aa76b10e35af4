package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The primitive-keyed map behaves as a {@link HashMap} over random puts, gets and removes. */
class LongObjectMapTest {
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void agreesWithHashMapOverRandomOperations(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        LongObjectMap<String> map = new LongObjectMap<>(2);
        Map<Long, String> reference = new HashMap<>();
        // A narrow key range forces collisions, long probe runs and backward shifts; some keys are negative.
        long range = 1 + rnd.nextInt(300);
        for (int step = 0; step < 20_000; step++) {
            long key = rnd.nextLong(range) - range / 4;
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    String v = "v" + step;
                    assertEquals(reference.put(key, v), map.put(key, v), "put " + key);
                }
                case 1 -> assertEquals(reference.remove(key), map.remove(key), "remove " + key);
                default -> assertEquals(reference.get(key), map.get(key), "get " + key);
            }
            assertEquals(reference.size(), map.size());
        }
        for (long key = -range; key < range; key++) {
            assertEquals(reference.get(key), map.get(key), "final get " + key);
        }
    }

    @Test
    void refusesNullValuesAndReportsAbsence() {
        LongObjectMap<String> map = new LongObjectMap<>(1);
        assertThrows(NullPointerException.class, () -> map.put(1, null));
        assertNull(map.get(1));
        assertNull(map.remove(1));
        assertEquals(0, map.size());
    }
}
