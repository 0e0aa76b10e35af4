package org.pagefabric.hw.nic;

import java.util.Arrays;
import org.pagefabric.sim.RandomStream;

/**
 * The NIC's memory-key table. A key is {@code index << 8 | tag}: the index finds the region in
 * O(1), and the 8-bit tag, drawn at random at registration, makes a guessed or stale key fail
 * with probability 255/256 (as verbs' key "variant" bits do), so forged keys are refused, not
 * silently honoured.
 */
public final class KeyTable {
    private MemoryRegion[] regions = new MemoryRegion[64];
    private int[] freeIndices = new int[64];
    private int freeTop;
    private int next;
    private final RandomStream random;

    /** A table whose key tags come from {@code random}. */
    public KeyTable(RandomStream random) {
        this.random = random;
    }

    /** Registers a region; its keys are fresh. */
    public MemoryRegion register(ProtectionDomain pd, long address, long length, int access, boolean implicit) {
        if (length < 0 || (!implicit && address + length < address)) {
            throw new IllegalArgumentException("bad region [0x" + Long.toHexString(address) + ", +" + length + ")");
        }
        int index = freeTop > 0 ? freeIndices[--freeTop] : next++;
        if (index >= (1 << 23)) {
            throw new IllegalStateException("more than 2^23 memory regions on one NIC");
        }
        if (index >= regions.length) {
            regions = Arrays.copyOf(regions, regions.length * 2);
        }
        int lkey = (index << 8) | (1 + random.nextInt(255));
        int rkey = (index << 8) | (1 + random.nextInt(255));
        MemoryRegion mr = new MemoryRegion(index, pd, address, length, access, lkey, rkey, implicit);
        regions[index] = mr;
        return mr;
    }

    /** Deregisters a region: its keys stop working at once. */
    public void deregister(MemoryRegion mr) {
        if (regions[mr.index()] != mr) {
            throw new IllegalArgumentException(mr + " is not registered here");
        }
        mr.invalidate();
        regions[mr.index()] = null;
        if (freeTop == freeIndices.length) {
            freeIndices = Arrays.copyOf(freeIndices, freeIndices.length * 2);
        }
        freeIndices[freeTop++] = mr.index();
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
        int index = key >>> 8;
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
}
