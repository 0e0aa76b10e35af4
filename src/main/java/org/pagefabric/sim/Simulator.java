package org.pagefabric.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.IntArrayQueue;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * The discrete-event kernel: a virtual clock, the pending events, and the loop that runs them
 * in the total order (time, {@link Band band}, sequence number assigned at scheduling).
 *
 * <p>One simulator is confined to one thread; parallelism comes from running independent
 * simulations side by side, which keeps every run deterministic whatever the thread count.
 *
 * <p>Hot-path design, all to avoid allocation and cache misses per event:
 * <ul>
 *   <li>events are slots in an {@link EventSlab} (handler, type, one word of argument), and a
 *       handle is the slot with its generation;</li>
 *   <li>the {@link FutureEventSet} (default {@link QuaternaryHeap}) holds two words per event:
 *       the time and a key packing band (3 bits), sequence number (34 bits) and slot (26 bits),
 *       so ordering needs no lookup and a 4-ary node's children share a cache line;</li>
 *   <li>events due now skip the heap: one FIFO per band takes zero-delay events, the common
 *       case of zero-latency hand-offs between components;</li>
 *   <li>the event being run stays at the heap's top until its handler returns: if the handler
 *       schedules a follow-up, one {@code replaceMin} does the work of a pop and a push;</li>
 *   <li>cancellation is lazy: the event is marked dead and the handle's generation stops
 *       matching once its entry is dropped, when it surfaces or when the heap is compacted
 *       because over half of it is dead (retransmission timers are mostly cancelled).</li>
 * </ul>
 */
public final class Simulator {
    /** The handle value that never names an event. */
    public static final long NO_EVENT = 0L;

    private static final int SLOT_BITS = EventSlab.SLOT_BITS;
    private static final long SLOT_MASK = EventSlab.SLOT_MASK;
    private static final int SEQ_BITS = 34;
    private static final long SEQ_MASK = ((1L << SEQ_BITS) - 1) << SLOT_BITS;
    private static final int BAND_SHIFT = SLOT_BITS + SEQ_BITS;
    private static final int COMPACT_MIN = 4096;
    /** Pending heap entries from which the slab outgrows the L1 cache and the runner-up is touched early. */
    static final int PREFETCH_MIN = 4096;

    private final long masterSeed;
    /** Sequence numbers given out before they are renumbered; below 2^34 only in tests. */
    private final long seqLimit;
    private final List<EventLane> lanes = new ArrayList<>();
    private final FutureEventSet heap;
    private final EventSlab slab;
    private final HandlerTable handlers = new HandlerTable();
    private final IntArrayQueue[] fifo = new IntArrayQueue[Band.COUNT];
    private int fifoMask;
    private int deadInHeap;
    private final long[] runnersUp = new long[1];
    /** Sum of prefetch loads; exists so that the JIT keeps them. */
    private long touched;
    /** Events scheduled and neither run nor cancelled. */
    private int live;

    private long now;
    private long seq;
    private long executed;
    private boolean topPending;
    private boolean running;
    private boolean stopRequested;
    private EventTracer tracer;

    private long wallNanos;

    private final Map<String, Component> components = new LinkedHashMap<>();
    private final StatisticsRegistry statistics;

    /** A simulator with the default future event set, sized for {@code expectedPending} events. */
    public Simulator(long masterSeed, int expectedPending) {
        this(masterSeed, new QuaternaryHeap(expectedPending), expectedPending);
    }

    /** A simulator with the default future event set. */
    public Simulator(long masterSeed) {
        this(masterSeed, 1024);
    }

    /** A simulator over a given (empty) future event set implementation. */
    public Simulator(long masterSeed, FutureEventSet futureEventSet, int expectedPending) {
        this(masterSeed, futureEventSet, expectedPending, 1L << SEQ_BITS);
    }

    /** A simulator that renumbers its events after {@code seqLimit} sequence numbers. */
    Simulator(long masterSeed, FutureEventSet futureEventSet, int expectedPending, long seqLimit) {
        if (seqLimit < 1 || seqLimit > 1L << SEQ_BITS) {
            throw new IllegalArgumentException("sequence limit " + seqLimit + " is not in 1..2^" + SEQ_BITS);
        }
        this.seqLimit = seqLimit;
        this.masterSeed = masterSeed;
        this.heap = futureEventSet;
        this.slab = new EventSlab(expectedPending);
        for (int b = 0; b < Band.COUNT; b++) {
            fifo[b] = new IntArrayQueue();
        }
        this.statistics = new StatisticsRegistry(this::now);
    }

    /** Current virtual time in picoseconds. */
    public long now() {
        return now;
    }

    /** The master seed every random stream derives from. */
    public long masterSeed() {
        return masterSeed;
    }

    /** A random stream for {@code name}, independent of every other name's and of event order. */
    public RandomStream randomStream(String name) {
        return new RandomStream(RandomStream.deriveSeed(masterSeed, name));
    }

    /** The statistics declared by this simulation's components. */
    public StatisticsRegistry statistics() {
        return statistics;
    }

    /** Schedules an event in the {@link Band#HARDWARE} band. */
    public long schedule(long delay, EventHandler handler, int type, long arg) {
        return schedule(delay, Band.HARDWARE, handler, type, arg);
    }

    /**
     * Schedules {@code handler.handle(type, arg)} after {@code delay} picoseconds.
     *
     * @return a handle for {@link #cancel}; stale once the event has run or been cancelled
     */
    public long schedule(long delay, int band, EventHandler handler, int type, long arg) {
        if (delay < 0) {
            throw new IllegalArgumentException("negative delay " + delay + " ps");
        }
        return insert(now + delay, band, handler, type, arg);
    }

    /** Schedules an event at absolute time {@code time}, which must not be in the past. */
    public long scheduleAt(long time, int band, EventHandler handler, int type, long arg) {
        if (time < now) {
            throw new IllegalArgumentException("time " + time + " ps is before now (" + now + " ps)");
        }
        return insert(time, band, handler, type, arg);
    }

    private long insert(long time, int band, EventHandler handler, int type, long arg) {
        if (band < 0 || band >= Band.COUNT) {
            throw new IllegalArgumentException("band " + band + " is not in 0.." + (Band.COUNT - 1));
        }
        if (handler == null) {
            throw new IllegalArgumentException("null handler");
        }
        if (time < 0) {
            throw new ClockOverflowException(now);
        }
        final EventSlab s = slab;
        int slot = s.allocate();
        boolean toHeap = time != now;
        long handle = s.set(slot, handlers.idOf(handler), type, arg, toHeap);
        live++;
        if (!toHeap) {
            // Every heap entry due now was scheduled before the clock reached now, so it comes
            // before anything in the same band's FIFO: the FIFO needs no sequence number.
            fifo[band].addInt(slot);
            fifoMask |= 1 << band;
        } else {
            if (seq == seqLimit) {
                renumber();
            }
            long key = ((long) band << BAND_SHIFT) | (seq++ << SLOT_BITS) | slot;
            if (topPending) {
                topPending = false;
                heap.replaceMin(time, key);
            } else {
                heap.add(time, key);
            }
        }
        return handle;
    }

    /**
     * A lane for {@code target}'s events in {@code band}: see {@link EventLane} for when one
     * pays and why it keeps the event order.
     */
    public EventLane lane(EventHandler target, int band) {
        if (band < 0 || band >= Band.COUNT) {
            throw new IllegalArgumentException("band " + band + " is not in 0.." + (Band.COUNT - 1));
        }
        if (target == null) {
            throw new IllegalArgumentException("null handler");
        }
        EventLane lane = new EventLane(this, target, band, handlers.nextId());
        handlers.assign(lane);
        lanes.add(lane);
        return lane;
    }

    /** Schedules an event of {@code lane}'s target at {@code time}, through the lane when it can. */
    void laneInsert(EventLane lane, long time, int type, long arg) {
        if (time < 0) {
            throw new ClockOverflowException(now);
        }
        if (time == now || !lane.accepts(time)) {
            insert(time, lane.band(), lane.target(), type, arg);
            return;
        }
        if (seq == seqLimit) {
            renumber();
        }
        long key = ((long) lane.band() << BAND_SHIFT) | (seq++ << SLOT_BITS);
        live++;
        boolean first = lane.isEmpty();
        lane.push(time, key, type, arg);
        if (first) {
            laneEnterHeap(lane, time, key, type, arg);
        }
    }

    /**
     * Puts a lane's head into the heap under the key it was given when scheduled; while the
     * previous head runs, it takes that entry's place.
     */
    void laneEnterHeap(EventLane lane, long time, long key, int type, long arg) {
        int slot = slab.allocate();
        slab.set(slot, lane.handlerId, type, arg, true);
        if (topPending) {
            topPending = false;
            heap.replaceMin(time, key | slot);
        } else {
            heap.add(time, key | slot);
        }
    }

    /**
     * Gives the pending events, in the heap and waiting in lanes, fresh sequence numbers 0..n-1 in
     * their current order, once every 2^34 insertions, so that the sequence fits its bits without
     * changing any order.
     */
    private void renumber() {
        if (topPending) {
            topPending = false;
            heap.removeMin();
        }
        int n = heap.size();
        int m = n;
        for (EventLane l : lanes) {
            m += Math.max(0, l.size() - 1);
        }
        long[] times = new long[m];
        long[] keys = new long[m];
        int[] laneOf = new int[m];
        int[] posInLane = new int[m];
        for (int i = 0; i < n; i++) {
            times[i] = heap.minTime();
            keys[i] = heap.minKey();
            laneOf[i] = -1;
            heap.removeMin();
        }
        int j = n;
        for (int li = 0; li < lanes.size(); li++) {
            EventLane l = lanes.get(li);
            // The head waits in the heap already; the others keep their keys in the lane.
            for (int i = 1; i < l.size(); i++) {
                times[j] = l.timeAt(i);
                keys[j] = l.keyAt(i);
                laneOf[j] = li;
                posInLane[j] = i;
                j++;
            }
        }
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(times[a], times[b]);
            return c != 0 ? c : Long.compare(keys[a] & ~SLOT_MASK, keys[b] & ~SLOT_MASK);
        });
        for (int r = 0; r < m; r++) {
            int e = order[r];
            long k = (keys[e] & ~SEQ_MASK) | ((long) r << SLOT_BITS);
            if (laneOf[e] < 0) {
                heap.add(times[e], k);
            } else {
                lanes.get(laneOf[e]).setKeyAt(posInLane[e], k);
            }
        }
        seq = m;
    }

    /**
     * Cancels a pending event in O(1): the event is marked dead and its queue entry is dropped
     * when it surfaces.
     *
     * @return whether the event was still pending
     */
    public boolean cancel(long handle) {
        if (!isPending(handle)) {
            return false;
        }
        int slot = (int) (handle & SLOT_MASK);
        slab.kill(slot);
        live--;
        if (slab.inHeap(slot)) {
            deadInHeap++;
        }
        return true;
    }

    /** Whether the event named by {@code handle} has neither run nor been cancelled. */
    public boolean isPending(long handle) {
        return slab.isLive(handle);
    }

    /** Runs until no event is left or {@link #stop()} is called. */
    public void run() {
        runUntil(Time.NEVER);
    }

    /**
     * Runs every event due at or before {@code until}; afterwards the clock reads {@code until}
     * if events remain beyond it, or the time of the last event otherwise.
     */
    public void runUntil(long until) {
        if (running) {
            throw new IllegalStateException("the simulator is already running");
        }
        if (until < now) {
            throw new IllegalArgumentException("cannot run until " + until + " ps: the clock already reads " + now + " ps");
        }
        running = true;
        stopRequested = false;
        long start = System.nanoTime();
        try {
            loop(until);
        } finally {
            running = false;
            if (topPending) {
                // The running event threw: drop its entry so the queue stays consistent.
                topPending = false;
                heap.removeMin();
            }
            wallNanos += System.nanoTime() - start;
        }
    }

    private void loop(long until) {
        final FutureEventSet h = heap;
        final EventSlab s = slab;
        while (!stopRequested) {
            // Not hoisted: a handler can grow the slab, which replaces the array.
            final long[] payload = s.payload;
            if (fifoMask != 0) {
                int fb = Integer.numberOfTrailingZeros(fifoMask);
                if (h.isEmpty() || h.minTime() != now || (int) (h.minKey() >>> BAND_SHIFT) > fb) {
                    runFifoHead(s, fb);
                    continue;
                }
            } else if (h.isEmpty()) {
                return;
            }
            if (deadInHeap > COMPACT_MIN && deadInHeap > (h.size() >>> 1)) {
                compact(h, s);
                continue;
            }
            long key = h.minKey();
            int slot = (int) (key & SLOT_MASK);
            long word = payload[2 * slot + 1];
            int id = EventSlab.handlerIdOf(word);
            if (id == EventSlab.DEAD) {
                // A cancelled event surfaced: drop it without moving the clock.
                h.removeMin();
                s.release(slot);
                deadInHeap--;
                continue;
            }
            long t = h.minTime();
            if (t > until) {
                now = until;
                return;
            }
            now = t;
            // Start loading the data of the event that comes next, so that its cache miss
            // overlaps this event's handler instead of stalling the next dispatch. A small
            // queue's slots stay in cache, where finding the runner-up costs more than it saves.
            if (h.size() >= PREFETCH_MIN && h.runnersUp(runnersUp, 1) > 0) {
                touched += payload[2 * (int) (runnersUp[0] & SLOT_MASK) + 1];
            }
            topPending = true;
            dispatch(s, slot, (int) (key >>> BAND_SHIFT), word);
            if (topPending) {
                topPending = false;
                h.removeMin();
            }
        }
    }

    private void runFifoHead(EventSlab s, int band) {
        IntArrayQueue q = fifo[band];
        int slot = q.removeInt();
        if (q.isEmpty()) {
            fifoMask &= ~(1 << band);
        }
        long word = s.payload[2 * slot + 1];
        if (EventSlab.handlerIdOf(word) == EventSlab.DEAD) {
            s.release(slot);
        } else {
            dispatch(s, slot, band, word);
        }
    }

    private void compact(FutureEventSet h, EventSlab s) {
        h.removeIf(key -> {
            int slot = (int) (key & SLOT_MASK);
            if (s.handlerId(slot) == EventSlab.DEAD) {
                s.release(slot);
                return true;
            }
            return false;
        });
        deadInHeap = 0;
    }

    private void dispatch(EventSlab s, int slot, int band, long word) {
        EventHandler handler = handlers.get(EventSlab.handlerIdOf(word));
        int type = (int) word;
        long arg = s.payload[2 * slot];
        s.release(slot);
        live--;
        executed++;
        if (tracer != null) {
            tracer.onEvent(now, band, handler instanceof EventLane l ? l.target() : handler, type);
        }
        try {
            handler.handle(type, arg);
        } catch (SimulationException e) {
            throw e;
        } catch (RuntimeException | Error e) {
            throw new SimulationException("event type " + type + " in band " + Band.name(band) + " at "
                    + Time.format(now) + " in " + describe(handler) + " failed: " + e, e);
        }
    }

    private static String describe(EventHandler h) {
        if (h instanceof EventLane l) {
            h = l.target();
        }
        return h instanceof Component c ? c.name() : h.getClass().getName();
    }

    /** Asks the loop to return after the event that is running now. */
    public void stop() {
        stopRequested = true;
    }

    /** Installs a tracer that sees every dispatched event, or removes it with {@code null}. */
    public void setTracer(EventTracer tracer) {
        this.tracer = tracer;
    }

    /** Events run so far. */
    public long eventsExecuted() {
        return executed;
    }

    /** Events scheduled and neither run nor cancelled. */
    public int pendingEvents() {
        return live;
    }

    /** Registers a component under its (unique) hierarchical name; called by {@link Component}. */
    int register(Component c) {
        if (components.putIfAbsent(c.name(), c) != null) {
            throw new IllegalArgumentException("a component named '" + c.name() + "' already exists");
        }
        return handlers.assign(c);
    }

    /** The component with that hierarchical name, or {@code null}. */
    public Component component(String name) {
        return components.get(name);
    }

    /** All components in creation order. */
    public List<Component> components() {
        return Collections.unmodifiableList(new ArrayList<>(components.values()));
    }

    /** Counts and rates of the work done so far. */
    public RunSummary summary() {
        return new RunSummary(executed, now, wallNanos);
    }
}
