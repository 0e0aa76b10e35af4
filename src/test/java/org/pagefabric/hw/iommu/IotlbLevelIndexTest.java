package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.sim.RandomStream;

/**
 * A level with indexed wide sets against the plain scanning cache it replaces: the same slot for
 * every key, the same evictions, hits and counts, over random sequences of lookups, fills,
 * invalidations and clears, for LRU and random replacement.
 */
class IotlbLevelIndexTest {
    /** The scanning cache: lowest invalid way, LRU by the smallest tick, random by one draw. */
    private static final class ScanningLevel {
        final int ways;
        final int sets;
        final long[] keys;
        final long[] values;
        final long[] lastUse;
        final ReplacementPolicy policy;
        final RandomStream random;
        long tick;
        int valid;

        ScanningLevel(IotlbLevelConfig c, RandomStream random) {
            ways = c.ways();
            sets = c.sets();
            keys = new long[c.entries()];
            values = new long[c.entries()];
            lastUse = new long[c.entries()];
            policy = c.policy();
            this.random = random;
            Arrays.fill(keys, IotlbLevel.INVALID);
        }

        int find(long key) {
            int base = (int) (key % sets) * ways;
            for (int w = 0; w < ways; w++) {
                if (keys[base + w] == key) {
                    return base + w;
                }
            }
            return -1;
        }

        int lookup(long key) {
            int s = find(key);
            if (s >= 0) {
                lastUse[s] = ++tick;
            }
            return s;
        }

        long insert(long key, long value) {
            int slot = find(key);
            long evicted = IotlbLevel.INVALID;
            if (slot < 0) {
                int base = (int) (key % sets) * ways;
                for (int w = 0; w < ways; w++) {
                    if (keys[base + w] == IotlbLevel.INVALID) {
                        slot = base + w;
                        break;
                    }
                }
                if (slot < 0) {
                    int victim = 0;
                    if (ways > 1 && policy == ReplacementPolicy.RANDOM) {
                        victim = random.nextInt(ways);
                    } else {
                        for (int w = 1; w < ways; w++) {
                            if (lastUse[base + w] < lastUse[base + victim]) {
                                victim = w;
                            }
                        }
                    }
                    slot = base + victim;
                    evicted = keys[slot];
                } else {
                    valid++;
                }
                keys[slot] = key;
            }
            values[slot] = value;
            lastUse[slot] = ++tick;
            return evicted;
        }

        boolean invalidate(long key) {
            int s = find(key);
            if (s < 0) {
                return false;
            }
            keys[s] = IotlbLevel.INVALID;
            valid--;
            return true;
        }

        int invalidateMatching(long mask, long pattern) {
            int n = 0;
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != IotlbLevel.INVALID && (keys[i] & mask) == pattern) {
                    keys[i] = IotlbLevel.INVALID;
                    n++;
                }
            }
            valid -= n;
            return n;
        }

        int invalidateKeyRange(long from, long to) {
            int n = 0;
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != IotlbLevel.INVALID && keys[i] >= from && keys[i] < to) {
                    keys[i] = IotlbLevel.INVALID;
                    n++;
                }
            }
            valid -= n;
            return n;
        }
    }

    @ParameterizedTest
    @CsvSource({"16,16,LRU", "64,64,LRU", "512,512,LRU", "128,32,LRU", "256,128,LRU", "64,8,LRU", "8,1,LRU",
            "32,4,LRU", "64,64,RANDOM", "512,512,RANDOM", "128,32,RANDOM", "200,100,LRU", "130,65,RANDOM"})
    void behavesLikeTheScanningCache(int entries, int ways, ReplacementPolicy policy) {
        IotlbLevelConfig c = new IotlbLevelConfig(entries, ways, policy, 1);
        for (long seed = 1; seed <= 4; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed * 1000 + entries + ways);
            IotlbLevel level = new IotlbLevel(c, new RandomStream(seed));
            ScanningLevel ref = new ScanningLevel(c, new RandomStream(seed));
            long keySpace = 3L * entries;
            for (int step = 0; step < 20_000; step++) {
                int op = rnd.nextInt(100);
                long key = rnd.nextLong(keySpace);
                String at = "seed " + seed + " step " + step;
                if (op < 45) {
                    int s = level.lookup(key);
                    assertEquals(ref.lookup(key), s, at);
                    if (s >= 0) {
                        assertEquals(ref.values[s], level.value(s), at);
                    }
                } else if (op < 85) {
                    long v = rnd.nextLong();
                    assertEquals(ref.insert(key, v), level.insert(key, v), at);
                } else if (op < 95) {
                    assertEquals(ref.invalidate(key), level.invalidate(key), at);
                } else if (op < 97) {
                    long mask = 7;
                    long pattern = rnd.nextLong(8);
                    assertEquals(ref.invalidateMatching(mask, pattern), level.invalidateMatching(mask, pattern), at);
                } else if (op < 99) {
                    long from = rnd.nextLong(keySpace);
                    long to = from + rnd.nextLong(entries / 2 + 1);
                    assertEquals(ref.invalidateKeyRange(from, to), level.invalidateKeyRange(from, to), at);
                } else {
                    level.clear();
                    Arrays.fill(ref.keys, IotlbLevel.INVALID);
                    ref.valid = 0;
                }
                assertEquals(ref.valid, level.size(), at);
            }
        }
    }
}
