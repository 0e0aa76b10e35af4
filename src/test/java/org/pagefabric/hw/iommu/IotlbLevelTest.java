package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.RandomStream;

/** One cache level against a straightforward reference model, per associativity and policy. */
class IotlbLevelTest {
    /** The textbook model: per set a list of ways; LRU keeps a recency list. */
    static final class Reference {
        final int ways;
        final int sets;
        final boolean lru;
        final RandomStream random;
        final long[][] way;
        final List<List<Long>> recency = new ArrayList<>();

        Reference(IotlbLevelConfig c, RandomStream random) {
            ways = c.ways();
            sets = c.sets();
            lru = c.policy() == ReplacementPolicy.LRU;
            this.random = random;
            way = new long[sets][ways];
            for (long[] s : way) {
                Arrays.fill(s, -1);
            }
            for (int i = 0; i < sets; i++) {
                recency.add(new ArrayList<>());
            }
        }

        /** Accesses a key: returns "hit", "fill" or {@code "evict:<key>"}. */
        String access(long key) {
            int set = (int) (key % sets);
            List<Long> order = recency.get(set);
            for (int w = 0; w < ways; w++) {
                if (way[set][w] == key) {
                    order.remove(key);
                    order.add(key);
                    return "hit";
                }
            }
            for (int w = 0; w < ways; w++) {
                if (way[set][w] == -1) {
                    way[set][w] = key;
                    order.add(key);
                    return "fill";
                }
            }
            int victim;
            if (ways == 1) {
                victim = 0;
            } else if (lru) {
                long oldest = order.get(0);
                victim = -1;
                for (int w = 0; w < ways; w++) {
                    if (way[set][w] == oldest) {
                        victim = w;
                    }
                }
            } else {
                victim = random.nextInt(ways);
            }
            long evicted = way[set][victim];
            order.remove(evicted);
            way[set][victim] = key;
            order.add(key);
            return "evict:" + evicted;
        }
    }

    private static String access(IotlbLevel level, long key) {
        if (level.lookup(key) >= 0) {
            return "hit";
        }
        long evicted = level.insert(key, key * 3 + 1);
        return evicted == IotlbLevel.INVALID ? "fill" : "evict:" + evicted;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lru_a1", "lru_a2", "lru_a4", "lru_af", "rnd_a1", "rnd_a2", "rnd_a4", "rnd_af"})
    void matchesTheReferenceModelOnARandomTrace(String spec) {
        IotlbLevelConfig config = IotlbLevelConfig.parse(spec, 32, 1);
        IotlbLevel level = new IotlbLevel(config, new RandomStream(42));
        Reference reference = new Reference(config, new RandomStream(42));
        RandomStream trace = new RandomStream(7);
        int hits = 0;
        for (int i = 0; i < 20_000; i++) {
            // A skewed key space larger than the level: some locality, many conflicts.
            long key = trace.nextBoolean(0.7) ? trace.nextLong(24) : trace.nextLong(200);
            String expected = reference.access(key);
            assertEquals(expected, access(level, key), spec + " access " + i + " key " + key);
            if (expected.equals("hit")) {
                hits++;
                assertEquals(key * 3 + 1, level.value(level.find(key)));
            }
        }
        assertTrue(hits > 1000 && hits < 19_000, "the trace exercises both hits and misses: " + hits);
        assertEquals(32, level.size());
    }

    @Test
    void directMappedConflictingKeysEvictEachOther() {
        IotlbLevel level = new IotlbLevel(IotlbLevelConfig.directMapped(8, 1), null);
        assertEquals("fill", access(level, 3));
        assertEquals("fill", access(level, 4));
        assertEquals("evict:3", access(level, 11)); // 11 mod 8 == 3
        assertEquals("evict:11", access(level, 3));
        assertEquals("hit", access(level, 4));
    }

    @Test
    void fullyAssociativeLruEvictsTheLeastRecentlyUsed() {
        IotlbLevel level = new IotlbLevel(IotlbLevelConfig.fullyAssociative(3, ReplacementPolicy.LRU, 1), null);
        access(level, 1);
        access(level, 2);
        access(level, 3);
        assertEquals("hit", access(level, 1));
        assertEquals("evict:2", access(level, 4));
        assertEquals("evict:3", access(level, 5));
        assertEquals("hit", access(level, 1));
    }

    @Test
    void randomReplacementIsReproducibleFromTheSeed() {
        IotlbLevelConfig config = IotlbLevelConfig.parse("rnd_af", 4, 1);
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        IotlbLevel a = new IotlbLevel(config, new RandomStream(5));
        IotlbLevel b = new IotlbLevel(config, new RandomStream(5));
        for (long k = 0; k < 100; k++) {
            first.add(access(a, k % 9));
            second.add(access(b, k % 9));
        }
        assertEquals(first, second);
    }

    @Test
    void invalidationRemovesOnlyMatchingKeys() {
        IotlbLevel level = new IotlbLevel(IotlbLevelConfig.parse("lru_a2", 8, 1), null);
        for (long k = 0; k < 8; k++) {
            level.insert(k, k);
        }
        assertTrue(level.invalidate(5));
        assertEquals(-1, level.find(5));
        assertEquals(2, level.invalidateKeyRange(1, 3));
        assertEquals(3, level.invalidateMatching(1, 0)); // the even keys left: 0, 4, 6
        assertEquals(2, level.size());
        assertTrue(level.find(3) >= 0 && level.find(7) >= 0);
        level.clear();
        assertEquals(0, level.size());
    }

    @Test
    void specsParseAndBadShapesAreRefused() {
        assertEquals(new IotlbLevelConfig(2048, 4, ReplacementPolicy.LRU, 5), IotlbLevelConfig.parse("lru_a4", 2048, 5));
        assertEquals(new IotlbLevelConfig(128, 128, ReplacementPolicy.RANDOM, 5), IotlbLevelConfig.parse("rnd_af", 128, 5));
        assertEquals(512, IotlbLevelConfig.parse("lru_a4", 2048, 5).sets());
        assertThrows(IllegalArgumentException.class, () -> IotlbLevelConfig.parse("mru_a4", 64, 1));
        assertThrows(IllegalArgumentException.class, () -> IotlbLevelConfig.parse("lru_b4", 64, 1));
        assertThrows(IllegalArgumentException.class, () -> IotlbLevelConfig.parse("lru_a3", 64, 1));
        assertThrows(IllegalArgumentException.class, () -> new IotlbLevelConfig(0, 1, ReplacementPolicy.LRU, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new IotlbLevel(IotlbLevelConfig.parse("rnd_a2", 4, 1), null));
    }
}
