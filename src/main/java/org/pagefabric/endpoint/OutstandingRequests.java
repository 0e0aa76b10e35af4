package org.pagefabric.endpoint;

import java.util.Arrays;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;

/**
 * Work requests posted on an endpoint and not yet reaped, by work request id: the peer, the
 * local and remote buffers and the length asked for. Every request is a slot in parallel arrays
 * that grow to the largest number ever outstanding and are reused after, so that posting and
 * reaping an operation allocate and box nothing once a run has reached its working depth.
 *
 * <p>A slot handed out by {@link #take} is free again, but its fields stay as they were until
 * the next {@link #add}: read them right away, before anything can post.
 */
public final class OutstandingRequests {
    /** Returned by {@link #take} for an id that is not outstanding. */
    public static final int NONE = -1;

    private final Long2LongHashMap slotOf = new Long2LongHashMap(16, Hashing.DEFAULT_LOAD_FACTOR, NONE);
    private Endpoint[] peer = new Endpoint[16];
    private long[] localVa = new long[16];
    private long[] remoteVa = new long[16];
    private long[] length = new long[16];
    /** Free slots below {@link #slots}, a stack: the slot reaped last is reused first. */
    private int[] free = new int[16];
    private int freeTop;
    /** Slots ever used. */
    private int slots;

    /**
     * Records request {@code wrId} as outstanding.
     *
     * @param peer the other end, or {@code null} for a purely local operation
     * @return false, recording nothing, if {@code wrId} is already outstanding
     */
    public boolean add(long wrId, Endpoint peer, long localVa, long remoteVa, long length) {
        if (slotOf.containsKey(wrId)) {
            return false;
        }
        int slot = freeTop > 0 ? free[--freeTop] : newSlot();
        this.peer[slot] = peer;
        this.localVa[slot] = localVa;
        this.remoteVa[slot] = remoteVa;
        this.length[slot] = length;
        slotOf.put(wrId, slot);
        return true;
    }

    /** The slot of outstanding request {@code wrId}, which stays outstanding, or {@link #NONE}. */
    public int find(long wrId) {
        return (int) slotOf.get(wrId);
    }

    /**
     * Ends request {@code wrId}: it is no longer outstanding. Returns its slot, whose fields are
     * readable until the next {@link #add}, or {@link #NONE} if {@code wrId} was not outstanding.
     */
    public int take(long wrId) {
        int slot = (int) slotOf.remove(wrId);
        if (slot != NONE) {
            free[freeTop++] = slot;
        }
        return slot;
    }

    /** The peer of the request in {@code slot}, or {@code null} for a local one. */
    public Endpoint peer(int slot) {
        return peer[slot];
    }

    /** The local buffer of the request in {@code slot}. */
    public long localVa(int slot) {
        return localVa[slot];
    }

    /** The remote buffer of the request in {@code slot} (0 for a send or a receive). */
    public long remoteVa(int slot) {
        return remoteVa[slot];
    }

    /** The length asked for by the request in {@code slot}. */
    public long length(int slot) {
        return length[slot];
    }

    /** Requests outstanding. */
    public int size() {
        return slotOf.size();
    }

    private int newSlot() {
        if (slots == peer.length) {
            int n = slots * 2;
            peer = Arrays.copyOf(peer, n);
            localVa = Arrays.copyOf(localVa, n);
            remoteVa = Arrays.copyOf(remoteVa, n);
            length = Arrays.copyOf(length, n);
            free = Arrays.copyOf(free, n);
        }
        return slots++;
    }
}
