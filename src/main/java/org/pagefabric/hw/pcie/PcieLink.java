package org.pagefabric.hw.pcie;

import java.util.Arrays;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A PCIe link between a device and the host, one serializer per direction.
 *
 * <p><b>Transactions.</b> A device DMA write ({@link #dmaWrite}) is posted: its TLPs go
 * upstream and the write is done when the last one reaches the root complex (the data is then
 * visible to the host). A device DMA read ({@link #dmaRead}) is non-posted: header-only read
 * requests go upstream, the host completes them after {@link PcieCosts#hostCompleterPs()}, and
 * the completions carry the data downstream; the read is done when the last completion reaches
 * the device. The host's MMIO writes and reads of device registers ({@link #mmioWrite},
 * {@link #mmioRead}) are the same in the other direction.
 *
 * <p><b>Contention.</b> Each direction serializes one TLP burst at a time, first come first
 * served: a transaction's TLPs on one direction go back to back, starting when the direction
 * is free. Reads reserve the completion direction when their first completion is ready. With
 * the requests sent back to back and each completion at least as long as a request, the
 * completion stream never waits for its last request, so it goes as one burst. Requests and
 * completions of different transactions contend; the number of outstanding read tags is not
 * limited.
 *
 * <p>The continuation of a transaction runs synchronously inside the link's completion event
 * (band {@link Band#HARDWARE}). Transactions in flight live in pooled primitive slots.
 */
public final class PcieLink extends Component {
    /** Device to host. */
    public static final int UPSTREAM = 0;
    /** Host to device. */
    public static final int DOWNSTREAM = 1;

    private static final int EV_DONE = 0;
    private static final int EV_COMPLETER_READY = 1;

    private final PcieCosts costs;
    private final long femtosPerByte;
    private final long[] freeAt = new long[2];
    private final long[] busyPs = new long[2];
    private final Counter[] tlps = new Counter[2];
    private final Counter[] wireBytes = new Counter[2];
    private final LatencyHistogram writeLatency;
    private final LatencyHistogram readLatency;

    // Transaction slots.
    private EventHandler[] done = new EventHandler[8];
    private int[] doneType = new int[8];
    private long[] doneArg = new long[8];
    private long[] issued = new long[8];
    private boolean[] isRead = new boolean[8];
    private int[] completionDir = new int[8];
    private long[] completionTlps = new long[8];
    private long[] completionWire = new long[8];
    private int[] free = new int[8];
    private int freeCount;
    private int capacity;

    /** A link named {@code parent.localName}, e.g. {@code node3.pcie}. */
    public PcieLink(Simulator sim, Component parent, String localName, PcieCosts costs) {
        super(sim, parent, localName);
        if (costs == null) {
            throw new IllegalArgumentException("PCIe link " + name() + " needs its costs");
        }
        this.costs = costs;
        this.femtosPerByte = costs.femtosPerByte();
        String[] dir = {"up", "down"};
        for (int d = 0; d < 2; d++) {
            tlps[d] = counter(dir[d] + ".tlps", "TLPs", "TLPs serialized " + dir[d] + "stream");
            wireBytes[d] = counter(dir[d] + ".wireBytes", "bytes", "bytes on the wire " + dir[d] + "stream");
        }
        writeLatency = latency("writeLatency", "posted writes, issue to arrival of the last TLP");
        readLatency = latency("readLatency", "non-posted reads, issue to arrival of the last completion");
    }

    /** A top-level link. */
    public PcieLink(Simulator sim, String name, PcieCosts costs) {
        this(sim, null, name, costs);
    }

    /** The link's parameters. */
    public PcieCosts costs() {
        return costs;
    }

    /** Time to serialize {@code bytes} on one direction, in picoseconds (rounded up). */
    public long serializationPs(long bytes) {
        return Math.ceilDiv(bytes * femtosPerByte, 1000L);
    }

    /** Latency of a device write on an idle link: serialization of its TLPs plus the link latency. */
    public long writeLatencyPs(long address, long length) {
        return serializationPs(Tlp.wireBytes(address, length, costs.maxPayloadBytes(), costs.tlpOverheadBytes()))
                + costs.latencyPs();
    }

    /**
     * Latency of a device read on an idle link: the first request's serialization and flight,
     * the host's completer latency, then the completions' serialization and flight.
     */
    public long readLatencyPs(long address, long length) {
        return readLatency(address, length, costs.hostCompleterPs());
    }

    private long readLatency(long address, long length, long completerPs) {
        long firstReady = serializationPs(costs.tlpOverheadBytes()) + costs.latencyPs() + completerPs;
        return firstReady
                + serializationPs(Tlp.wireBytes(address, length, completionBlock(), costs.tlpOverheadBytes()))
                + costs.latencyPs();
    }

    /** A device DMA write of {@code length} bytes to host address {@code address} (posted). */
    public void dmaWrite(long address, long length, EventHandler onDone, int type, long arg) {
        posted(UPSTREAM, address, length, onDone, type, arg);
    }

    /** A device DMA read of {@code length} bytes from host address {@code address}. */
    public void dmaRead(long address, long length, EventHandler onDone, int type, long arg) {
        nonPosted(UPSTREAM, address, length, costs.hostCompleterPs(), onDone, type, arg);
    }

    /** A host write of {@code length} bytes to a device register (a doorbell; posted). */
    public void mmioWrite(long address, long length, EventHandler onDone, int type, long arg) {
        posted(DOWNSTREAM, address, length, onDone, type, arg);
    }

    /** A host read of {@code length} bytes from a device register. */
    public void mmioRead(long address, long length, EventHandler onDone, int type, long arg) {
        nonPosted(DOWNSTREAM, address, length, costs.deviceCompleterPs(), onDone, type, arg);
    }

    private void posted(int dir, long address, long length, EventHandler onDone, int type, long arg) {
        int mps = costs.maxPayloadBytes();
        long count = Tlp.count(address, length, mps);
        long end = reserve(dir, sim.now(), count, length + count * costs.tlpOverheadBytes());
        int slot = allocate(onDone, type, arg, false);
        schedule(end + costs.latencyPs() - sim.now(), EV_DONE, slot);
    }

    private void nonPosted(int requestDir, long address, long length, long completerPs, EventHandler onDone, int type,
            long arg) {
        if (length == 0) {
            throw new IllegalArgumentException("a read needs at least one byte");
        }
        int overhead = costs.tlpOverheadBytes();
        long requests = Tlp.count(address, length, costs.maxReadRequestBytes());
        long start = Math.max(sim.now(), freeAt[requestDir]);
        reserve(requestDir, sim.now(), requests, requests * overhead);
        long firstReady = start + serializationPs(overhead) + costs.latencyPs() + completerPs;
        int slot = allocate(onDone, type, arg, true);
        int block = completionBlock();
        completionDir[slot] = 1 - requestDir;
        completionTlps[slot] = Tlp.count(address, length, block);
        completionWire[slot] = length + completionTlps[slot] * overhead;
        schedule(firstReady - sim.now(), EV_COMPLETER_READY, slot);
    }

    /**
     * Completions carry at most the max payload and never span two read requests, so they are
     * cut at aligned blocks of the smaller of the two sizes (both are powers of two).
     */
    private int completionBlock() {
        return Math.min(costs.maxPayloadBytes(), costs.maxReadRequestBytes());
    }

    /** Reserves a direction for a burst of TLPs from {@code earliest}; returns when it ends. */
    private long reserve(int dir, long earliest, long count, long bytes) {
        long start = Math.max(earliest, freeAt[dir]);
        long ser = serializationPs(bytes);
        freeAt[dir] = start + ser;
        busyPs[dir] += ser;
        tlps[dir].add(count);
        wireBytes[dir].add(bytes);
        return start + ser;
    }

    @Override
    public void handle(int eventType, long eventArg) {
        int slot = (int) eventArg;
        switch (eventType) {
            case EV_COMPLETER_READY -> {
                int dir = completionDir[slot];
                long end = reserve(dir, sim.now(), completionTlps[slot], completionWire[slot]);
                schedule(end + costs.latencyPs() - sim.now(), EV_DONE, slot);
            }
            case EV_DONE -> {
                EventHandler h = done[slot];
                int t = doneType[slot];
                long a = doneArg[slot];
                (isRead[slot] ? readLatency : writeLatency).record(sim.now() - issued[slot]);
                release(slot);
                if (h != null) {
                    h.handle(t, a);
                }
            }
            default -> throw new IllegalStateException("unknown event type " + eventType);
        }
    }

    /** Picoseconds a direction has spent serializing so far (including reserved future time). */
    public long busyPs(int direction) {
        return busyPs[direction];
    }

    /** TLPs serialized on a direction so far. */
    public long tlps(int direction) {
        return tlps[direction].value();
    }

    /** Bytes put on the wire of a direction so far. */
    public long wireBytes(int direction) {
        return wireBytes[direction].value();
    }

    private int allocate(EventHandler onDone, int type, long arg, boolean read) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (capacity == done.length) {
                int n = capacity * 2;
                done = Arrays.copyOf(done, n);
                doneType = Arrays.copyOf(doneType, n);
                doneArg = Arrays.copyOf(doneArg, n);
                issued = Arrays.copyOf(issued, n);
                isRead = Arrays.copyOf(isRead, n);
                completionDir = Arrays.copyOf(completionDir, n);
                completionTlps = Arrays.copyOf(completionTlps, n);
                completionWire = Arrays.copyOf(completionWire, n);
                free = Arrays.copyOf(free, n);
            }
            slot = capacity++;
        }
        done[slot] = onDone;
        doneType[slot] = type;
        doneArg[slot] = arg;
        issued[slot] = sim.now();
        isRead[slot] = read;
        return slot;
    }

    private void release(int slot) {
        done[slot] = null;
        free[freeCount++] = slot;
    }
}
