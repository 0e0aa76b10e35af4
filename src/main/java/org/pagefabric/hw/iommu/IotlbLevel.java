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
 * lookups and fills allocate nothing. Sets wider than {@link #SCANNED_WAYS} ways (the fully
 * associative levels of most profiles: 64 to 512 ways) are not scanned: a hash index finds a
 * key's slot, a recency list per set gives the least recently used way, and a bitmap per set
 * the lowest invalid way, which are the answers a scan would give.
 */
public final class IotlbLevel {
    /** The key value that marks an invalid slot (keys are non-negative). */
    public static final long INVALID = -1L;

    /** Sets of at most this many ways are scanned; wider ones are indexed. */
    static final int SCANNED_WAYS = 8;

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
    // wide sets only (null otherwise): key -> slot, recency order, invalid ways
    private final SlotHash index;
    private final RecencyList recency;
    private final long[] invalidWays;
    private final int wordsPerSet;

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
        if (ways > SCANNED_WAYS) {
            index = new SlotHash(config.entries());
            recency = config.policy() == ReplacementPolicy.LRU ? new RecencyList(config.entries(), sets, ways) : null;
            wordsPerSet = (ways + 63) >>> 6;
            invalidWays = new long[sets * wordsPerSet];
            markAllInvalid();
        } else {
            index = null;
            recency = null;
            wordsPerSet = 0;
            invalidWays = null;
        }
    }

    private void markAllInvalid() {
        for (int s = 0; s < sets; s++) {
            for (int w = 0; w < ways; w++) {
                invalidWays[s * wordsPerSet + (w >>> 6)] |= 1L << w;
            }
        }
    }

    /** The lowest invalid way of the set at {@code base}, or -1 (wide sets). */
    private int lowestInvalidWay(int base) {
        int at = base / ways * wordsPerSet;
        for (int i = 0; i < wordsPerSet; i++) {
            long bits = invalidWays[at + i];
            if (bits != 0) {
                return (i << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return -1;
    }

    private void setInvalidBit(int slot, boolean invalid) {
        int set = slot / ways;
        int w = slot - set * ways;
        int i = set * wordsPerSet + (w >>> 6);
        if (invalid) {
            invalidWays[i] |= 1L << w;
        } else {
            invalidWays[i] &= ~(1L << w);
        }
    }

    /** Empties slot {@code slot} of a wide set in every structure. */
    private void dropIndexed(int slot) {
        index.remove(keys[slot], keys);
        if (recency != null) {
            recency.unlink(slot);
        }
        setInvalidBit(slot, true);
    }

    /** Empties slot {@code slot}; the caller counts it out of {@code valid}. */
    private void empty(int slot) {
        if (index != null) {
            dropIndexed(slot);
        }
        keys[slot] = INVALID;
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
        if (index != null) {
            return index.find(key, keys);
        }
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
        if (recency != null) {
            // a wide set's recency list is its LRU order; ticks would only repeat it
            recency.moveToFront(slot);
            return;
        }
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
            if (index != null) {
                int w = lowestInvalidWay(base);
                if (w >= 0) {
                    slot = base + w;
                    setInvalidBit(slot, false);
                    valid++;
                } else {
                    slot = base + victimWay(base);
                    evicted = keys[slot];
                    index.remove(evicted, keys);
                }
                keys[slot] = key;
                index.add(key, slot, keys);
            } else {
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
        if (recency != null) {
            // the set is full, so every way was touched since its fill: ticks are distinct and
            // the least recent way is the one of the smallest tick, as the scan below finds
            return recency.leastRecent(base / ways) - base;
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
        empty(slot);
        valid--;
        return true;
    }

    /** Removes every key with {@code (key & mask) == pattern}; returns how many. */
    public int invalidateMatching(long mask, long pattern) {
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            long k = keys[i];
            if (k != INVALID && (k & mask) == pattern) {
                empty(i);
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
                empty(i);
                n++;
            }
        }
        valid -= n;
        return n;
    }

    /** Removes everything. */
    public void clear() {
        if (index != null) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != INVALID) {
                    dropIndexed(i);
                }
            }
        }
        Arrays.fill(keys, INVALID);
        valid = 0;
    }

    /** Valid entries. */
    public int size() {
        return valid;
    }
}
