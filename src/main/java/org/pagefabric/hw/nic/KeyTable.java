package org.pagefabric.hw.nic;

import java.util.Arrays;
import org.pagefabric.sim.RandomStream;

/**
 * The NIC's memory-key table. A 32-bit key is {@code index << tagBits | tag}: the index finds the
 * region in O(1), and the tag, drawn at random from {@code 1 .. 2^tagBits - 1} at registration,
 * is the only secret. Keys are not unforgeable: a guess with a known index and a random tag
 * names a live region with probability {@code 2^-tagBits} (1/256 with ConnectX's 8-bit "key"
 * byte of an mkey); a stale key survives its region's index being reused with probability
 * {@code 1/(2^tagBits - 1)}. Whatever a guessed key reaches, it reaches only within that
 * region's bounds, rights and protection domain.
 */
public final class KeyTable {
    /** Tag bits of a ConnectX mkey (24-bit index, 8-bit key), the default of {@code nic.key_tag_bits}. */
    public static final int DEFAULT_TAG_BITS = 8;
    /** Most tag bits a key may have: the rest of the 32 bits must index {@link #MIN_INDEX_BITS} regions. */
    public static final int MAX_TAG_BITS = 16;
    /** Fewest index bits: 65 536 regions per NIC, more than any workload here registers at once. */
    public static final int MIN_INDEX_BITS = 32 - MAX_TAG_BITS;

    private MemoryRegion[] regions = new MemoryRegion[64];
    /** Memory windows by index: they share the index space with regions, as mlx5's mkeys do. */
    private MemoryWindow[] windows = new MemoryWindow[64];
    private int[] freeIndices = new int[64];
    private int freeTop;
    private int next;
    private final RandomStream random;
    private final int tagBits;
    /** Regions the index bits can name (an index is an {@code int}, so at most 2^31 - 1). */
    private final long capacity;

    /** A table whose {@value #DEFAULT_TAG_BITS}-bit key tags come from {@code random}. */
    public KeyTable(RandomStream random) {
        this(random, DEFAULT_TAG_BITS);
    }

    /**
     * A table whose key tags of {@code tagBits} bits come from {@code random}.
     *
     * @param tagBits 0 (the key is the index: any guess of a live index is honoured) to {@value #MAX_TAG_BITS}
     */
    public KeyTable(RandomStream random, int tagBits) {
        if (tagBits < 0 || tagBits > MAX_TAG_BITS) {
            throw new IllegalArgumentException("key tag bits must be 0.." + MAX_TAG_BITS + ", not " + tagBits);
        }
        this.random = random;
        this.tagBits = tagBits;
        this.capacity = Math.min(1L << (32 - tagBits), Integer.MAX_VALUE);
    }

    /** Bits of a key that are the random tag. */
    public int tagBits() {
        return tagBits;
    }

    /** Registers a region; its keys are fresh. */
    public MemoryRegion register(ProtectionDomain pd, long address, long length, int access, boolean implicit) {
        if (length < 0 || (!implicit && address + length < address)) {
            throw new IllegalArgumentException("bad region [0x" + Long.toHexString(address) + ", +" + length + ")");
        }
        int index = takeIndex();
        int lkey = (index << tagBits) | tag();
        int rkey = (index << tagBits) | tag();
        MemoryRegion mr = new MemoryRegion(index, pd, address, length, access, lkey, rkey, implicit);
        regions[index] = mr;
        return mr;
    }

    private int takeIndex() {
        int index = freeTop > 0 ? freeIndices[--freeTop] : next++;
        if (index >= capacity) {
            throw new IllegalStateException("more than " + capacity + " memory regions and windows on one NIC ("
                    + tagBits + " key tag bits leave " + (32 - tagBits) + " index bits)");
        }
        if (index >= regions.length) {
            regions = Arrays.copyOf(regions, regions.length * 2);
            windows = Arrays.copyOf(windows, windows.length * 2);
        }
        return index;
    }

    private void releaseIndex(int index) {
        if (freeTop == freeIndices.length) {
            freeIndices = Arrays.copyOf(freeIndices, freeIndices.length * 2);
        }
        freeIndices[freeTop++] = index;
    }

    /** Allocates an unbound memory window with a fresh rkey ({@code ibv_alloc_mw}). */
    public MemoryWindow allocateWindow(ProtectionDomain pd) {
        int index = takeIndex();
        MemoryWindow mw = new MemoryWindow(index, pd, (index << tagBits) | tag());
        windows[index] = mw;
        return mw;
    }

    /** Returns a window ({@code ibv_dealloc_mw}): its key stops working at once. */
    public void deallocateWindow(MemoryWindow mw) {
        if (windows[mw.index()] != mw) {
            throw new IllegalArgumentException(mw + " is not allocated here");
        }
        mw.deallocate();
        windows[mw.index()] = null;
        releaseIndex(mw.index());
    }

    /**
     * The key the next bind of {@code mw} should carry: the same index with the tag advanced by
     * one ({@code ibv_inc_rkey(3)}), skipping 0, so that a key from before the bind no longer
     * names the window. Without tag bits the key cannot change.
     */
    public int nextWindowKey(MemoryWindow mw) {
        if (tagBits == 0) {
            return mw.rkey();
        }
        int mask = (1 << tagBits) - 1;
        int t = (mw.rkey() & mask) + 1;
        return (mw.index() << tagBits) | (t > mask ? 1 : t);
    }

    /** The allocated window a remote key names (bound or not), or {@code null}. */
    public MemoryWindow windowByRkey(int rkey) {
        int index = rkey >>> tagBits;
        MemoryWindow mw = index < windows.length ? windows[index] : null;
        return mw != null && mw.rkey() == rkey ? mw : null;
    }

    /** The allocated window at the index a key names, whatever its tag, or {@code null}. */
    MemoryWindow windowAt(int key) {
        int index = key >>> tagBits;
        return index < windows.length ? windows[index] : null;
    }

    /** A fresh tag, never 0 (a zeroed key field never names a region); none without tag bits. */
    private int tag() {
        return tagBits == 0 ? 0 : 1 + random.nextInt((1 << tagBits) - 1);
    }

    /** Deregisters a region: its keys stop working at once. */
    public void deregister(MemoryRegion mr) {
        if (regions[mr.index()] != mr) {
            throw new IllegalArgumentException(mr + " is not registered here");
        }
        mr.invalidate();
        regions[mr.index()] = null;
        releaseIndex(mr.index());
    }

    /** The region a local key names, or {@code null}. */
    public MemoryRegion byLkey(int lkey) {
        MemoryRegion mr = at(lkey);
        return mr != null && mr.lkey() == lkey ? mr : null;
    }

    /** The region a remote key names, or {@code null}. */
    public MemoryRegion byRkey(int rkey) {
        MemoryRegion mr = at(rkey);
        return mr != null && mr.rkey() == rkey ? mr : null;
    }

    private MemoryRegion at(int key) {
        int index = key >>> tagBits;
        return index < regions.length ? regions[index] : null;
    }

    /**
     * Checks an access of {@code len} bytes at {@code va} through {@code mr} (already looked up
     * by key; {@code null} if the key matched nothing) from protection domain {@code pd}.
     */
    public static AccessCheck check(MemoryRegion mr, ProtectionDomain pd, long va, long len, int needed) {
        if (mr == null || !mr.valid()) {
            return AccessCheck.BAD_KEY;
        }
        if (pd != null && mr.pd().id() != pd.id()) {
            return AccessCheck.WRONG_PROTECTION_DOMAIN;
        }
        if (!mr.contains(va, len)) {
            return AccessCheck.OUT_OF_BOUNDS;
        }
        if (!AccessFlags.allows(mr.access(), needed)) {
            return AccessCheck.ACCESS_DENIED;
        }
        return AccessCheck.OK;
    }

    /**
     * Checks a remote access through a memory window's key, before the region's own check: the
     * window (bound, not revoked), its protection domain, the queue pair it was bound on (type
     * 2), its bounds and rights; then the region it is bound to (still registered, same domain,
     * bounds). {@code mw} is what the key matched, {@code null} if nothing.
     */
    public static AccessCheck checkWindow(MemoryWindow mw, QueuePair qp, long va, long len, int needed) {
        if (mw == null || !mw.bound()) {
            return AccessCheck.BAD_KEY;
        }
        if (mw.pd().id() != qp.pd().id()) {
            return AccessCheck.WRONG_PROTECTION_DOMAIN;
        }
        if (mw.qp() != qp) {
            return AccessCheck.WRONG_QUEUE_PAIR;
        }
        if (!mw.contains(va, len)) {
            return AccessCheck.OUT_OF_BOUNDS;
        }
        if (!AccessFlags.allows(mw.access(), needed)) {
            return AccessCheck.ACCESS_DENIED;
        }
        return check(mw.region(), qp.pd(), va, len, 0);
    }
}
