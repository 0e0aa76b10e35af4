package org.pagefabric.hw.net;

import java.util.Arrays;

/**
 * Recycled packets: a free list of indices over a growing array, so that steady-state traffic
 * allocates nothing and an event names a packet by its index.
 */
public final class PacketPool {
    private final int payloadCapacity;
    private Packet[] packets;
    private int[] free;
    private int freeCount;

    /**
     * A pool with {@code initial} packets, each with a payload buffer of {@code payloadCapacity}
     * bytes (the largest MTU it will carry). It grows by doubling when it runs dry.
     */
    public PacketPool(int initial, int payloadCapacity) {
        if (initial <= 0) {
            throw new IllegalArgumentException("initial pool size must be positive, got " + initial);
        }
        if (payloadCapacity < 0) {
            throw new IllegalArgumentException("negative payload capacity " + payloadCapacity);
        }
        this.payloadCapacity = payloadCapacity;
        this.packets = new Packet[0];
        this.free = new int[0];
        grow(initial);
    }

    private void grow(int add) {
        int old = packets.length;
        int size = old + add;
        packets = Arrays.copyOf(packets, size);
        free = Arrays.copyOf(free, size);
        // Lowest indices on top of the stack, so that a fresh pool hands out 0, 1, 2...
        for (int i = size - 1; i >= old; i--) {
            packets[i] = new Packet(i, payloadCapacity);
            free[freeCount++] = i;
        }
    }

    /** A cleared packet, now owned by the caller. */
    public Packet acquire() {
        if (freeCount == 0) {
            grow(packets.length);
        }
        Packet p = packets[free[--freeCount]];
        p.clear();
        p.inUse = true;
        return p;
    }

    /** Returns a packet to the pool; releasing one that is not in use is a model bug. */
    public void release(Packet p) {
        if (!p.inUse) {
            throw new IllegalStateException("packet " + p.index() + " released twice");
        }
        p.inUse = false;
        free[freeCount++] = p.index();
    }

    /** The packet at {@code index}, as named by an event. */
    public Packet get(int index) {
        return packets[index];
    }

    /** Packets currently owned by someone: zero when the network is quiet and nothing leaked. */
    public int inUse() {
        return packets.length - freeCount;
    }

    /** Packets allocated so far. */
    public int capacity() {
        return packets.length;
    }

    /** Payload bytes each packet can carry. */
    public int payloadCapacity() {
        return payloadCapacity;
    }
}
