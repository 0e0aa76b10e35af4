package org.pagefabric.sim;

import java.util.Arrays;

/**
 * A first-in first-out queue of one handler's future events whose times do not decrease in the
 * order they are scheduled: a link's arrivals, a switch's forwards at a constant latency.
 *
 * <p>Why: a network of short packets keeps one event per packet in flight, and the future event
 * set's cost grows with its size. In a lane only the earliest event sits in the simulator's
 * heap; the others wait here with the order key they were given when scheduled, and the next
 * one enters the heap when its predecessor runs. The heap then holds one entry per busy lane,
 * and every event still runs at exactly the place in the (time, band, sequence) order it would
 * take without the lane, so results do not change.
 *
 * <p>An event that would break the lane's order (earlier than the lane's last one) or that is
 * due at the current instant is scheduled as an ordinary event instead, which keeps the order
 * exact for any caller. Events in a lane cannot be cancelled.
 */
public final class EventLane implements EventHandler {
    private final Simulator sim;
    private final EventHandler target;
    private final int band;
    /** This lane's id in the simulator's handler table, given at creation. */
    final int handlerId;
    private long[] times = new long[16];
    private long[] keys = new long[16];
    private long[] args = new long[16];
    private int[] types = new int[16];
    private int head;
    private int size;

    EventLane(Simulator sim, EventHandler target, int band, int handlerId) {
        this.sim = sim;
        this.target = target;
        this.band = band;
        this.handlerId = handlerId;
    }

    /** The handler the lane's events go to. */
    public EventHandler target() {
        return target;
    }

    /** The band of every event of this lane. */
    public int band() {
        return band;
    }

    /** Schedules an event for the target {@code delay} picoseconds from now. */
    public void schedule(long delay, int type, long arg) {
        if (delay < 0) {
            throw new IllegalArgumentException("negative delay " + delay + " ps");
        }
        sim.laneInsert(this, sim.now() + delay, type, arg);
    }

    /** Whether an event at {@code time} can join the tail without breaking the lane's order. */
    boolean accepts(long time) {
        return size == 0 || times[(head + size - 1) & (times.length - 1)] <= time;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void push(long time, long key, int type, long arg) {
        if (size == times.length) {
            grow();
        }
        int i = (head + size) & (times.length - 1);
        times[i] = time;
        keys[i] = key;
        types[i] = type;
        args[i] = arg;
        size++;
    }

    /** Time of the {@code i}-th waiting event, the head being 0. */
    long timeAt(int i) {
        return times[(head + i) & (times.length - 1)];
    }

    /** Order key (without slot) of the {@code i}-th waiting event. */
    long keyAt(int i) {
        return keys[(head + i) & (times.length - 1)];
    }

    void setKeyAt(int i, long key) {
        keys[(head + i) & (times.length - 1)] = key;
    }

    int typeAt(int i) {
        return types[(head + i) & (times.length - 1)];
    }

    long argAt(int i) {
        return args[(head + i) & (times.length - 1)];
    }

    /**
     * Runs the head, whose type and argument the simulator passes back from the heap entry it
     * made for it; first puts the next waiting event into the heap, where it takes the running
     * entry's place.
     */
    @Override
    public void handle(int type, long arg) {
        head = (head + 1) & (times.length - 1);
        size--;
        if (size > 0) {
            sim.laneEnterHeap(this, times[head], keys[head], types[head], args[head]);
        }
        target.handle(type, arg);
    }

    private void grow() {
        int n = times.length;
        times = unwrap(times, n);
        keys = unwrap(keys, n);
        args = unwrap(args, n);
        int[] t = new int[2 * n];
        for (int i = 0; i < n; i++) {
            t[i] = types[(head + i) & (n - 1)];
        }
        types = t;
        head = 0;
    }

    private long[] unwrap(long[] a, int n) {
        long[] b = Arrays.copyOf(a, 2 * n);
        for (int i = 0; i < n; i++) {
            b[i] = a[(head + i) & (n - 1)];
        }
        return b;
    }
}
