package org.pagefabric.hw.iommu;

import java.util.Arrays;
import org.pagefabric.sim.RandomStream;

/**
 * One set-associative cache level mapping a non-negative {@code long} key to a {@code long}
 * value: an IOTLB level (key: domain, page size and page number; value: the PTE word) or a
 * context cache (key: the domain). The set of a key is {@code key mod sets}, so consecutive
 * pages of a domain fall in consecutive sets, as with a TLB indexed by low page-number bits.
 * A fill takes the lowest invalid way of its set, or evicts by the configured policy.
 *
 * <p>Storage is primitive arrays (way {@code w} of set {@code s} is slot {@code s*ways+w});
 * lookups and fills allocate nothing.
 */
public final class IotlbLevel {
    /** The key value that marks an invalid slot (keys are non-negative). */
    public static final long INVALID = -1L;

    private final IotlbLevelConfig config;
    private final int ways;
    private final int sets;
    private final long[] keys;
    private final long[] values;
    /** LRU: the tick of the last use of each slot. */
    private final long[] lastUse;
    private final RandomStream random;
    private long tick;
    private int valid;
    private long lastEvicted = INVALID;

    /** A level; {@code random} is drawn from only by {@link ReplacementPolicy#RANDOM}. */
    public IotlbLevel(IotlbLevelConfig config, RandomStream random) {
        this.config = config;
        this.ways = config.ways();
        this.sets = config.sets();
        this.keys = new long[config.entries()];
        this.values = new long[config.entries()];
        this.lastUse = new long[config.entries()];
        this.random = random;
        if (config.policy() == ReplacementPolicy.RANDOM && random == null) {
            throw new IllegalArgumentException("random replacement needs a random stream");
        }
        Arrays.fill(keys, INVALID);
    }

    /** The level's shape. */
    public IotlbLevelConfig config() {
        return config;
    }

    /** The set {@code key} maps to. */
    public int setOf(long key) {
        return (int) (key % sets);
    }

    /** The slot holding {@code key}, or -1; does not count as a use. */
    public int find(long key) {
        int base = setOf(key) * ways;
        for (int w = 0; w < ways; w++) {
            if (keys[base + w] == key) {
                return base + w;
            }
        }
        return -1;
    }

    /** The value of a slot found by {@link #find}. */
    public long value(int slot) {
        return values[slot];
    }

    /** Records a use of a slot (a hit), for LRU. */
    public void touch(int slot) {
        lastUse[slot] = ++tick;
    }

    /**
     * Looks {@code key} up and counts a hit as a use.
     *
     * @return the slot, or -1 on a miss
     */
    public int lookup(long key) {
        int slot = find(key);
        if (slot >= 0) {
            touch(slot);
        }
        return slot;
    }

    /**
     * Inserts or updates {@code key}; a fill into a full set evicts by the policy.
     *
     * @return the evicted key, or {@link #INVALID} if nothing was evicted
     */
    public long insert(long key, long value) {
        if (key < 0) {
            throw new IllegalArgumentException("keys must not be negative: " + key);
        }
        int slot = find(key);
        long evicted = INVALID;
        if (slot < 0) {
            int base = setOf(key) * ways;
            for (int w = 0; w < ways; w++) {
                if (keys[base + w] == INVALID) {
                    slot = base + w;
                    break;
                }
            }
            if (slot < 0) {
                slot = base + victimWay(base);
                evicted = keys[slot];
            } else {
                valid++;
            }
            keys[slot] = key;
        }
        values[slot] = value;
        touch(slot);
        lastEvicted = evicted;
        return evicted;
    }

    private int victimWay(int base) {
        if (ways == 1) {
            return 0;
        }
        if (config.policy() == ReplacementPolicy.RANDOM) {
            return random.nextInt(ways);
        }
        int victim = 0;
        for (int w = 1; w < ways; w++) {
            if (lastUse[base + w] < lastUse[base + victim]) {
                victim = w;
            }
        }
        return victim;
    }

    /** The key evicted by the last {@link #insert}, or {@link #INVALID}. */
    public long lastEvicted() {
        return lastEvicted;
    }

    /** Removes {@code key}; returns whether it was present. */
    public boolean invalidate(long key) {
        int slot = find(key);
        if (slot < 0) {
            return false;
        }
        keys[slot] = INVALID;
        valid--;
        return true;
    }

    /** Removes every key with {@code (key & mask) == pattern}; returns how many. */
    public int invalidateMatching(long mask, long pattern) {
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            long k = keys[i];
            if (k != INVALID && (k & mask) == pattern) {
                keys[i] = INVALID;
                n++;
            }
        }
        valid -= n;
        return n;
    }

    /** Removes every key in {@code [from, to)}; returns how many. */
    int invalidateKeyRange(long from, long to) {
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            long k = keys[i];
            if (k != INVALID && k >= from && k < to) {
                keys[i] = INVALID;
                n++;
            }
        }
        valid -= n;
        return n;
    }

    /** Removes everything. */
    public void clear() {
        Arrays.fill(keys, INVALID);
        valid = 0;
    }

    /** Valid entries. */
    public int size() {
        return valid;
    }
}
