package org.pagefabric.workload.dht;

import java.util.Arrays;
import org.agrona.collections.IntArrayQueue;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * Remote memory operations of the hashtable's processes, carried as datagrams over the simulated
 * network, as 002 §5.2 emulates RMA at scale: a put is one message, an atomic a request and a
 * reply. The target NIC performs atomics in its atomic unit, one at a time (a DMA read round
 * trip to host memory each), and DMA-writes puts and active messages into host memory; puts
 * are acknowledged so that a flush can wait for them. Links, the switch and their contention are
 * the cluster's own; the fabric adds only the NIC-side steps, with costs from {@link DhtCosts}.
 *
 * <p>Many processes share a node (32 in 002 §5.2): datagrams are addressed to a node and carry
 * the target and source process. Per-operation state lives in primitive slot arrays, so the
 * steady state allocates nothing.
 */
public final class DhtFabric extends Component {
    /** The datagram channel the hashtable uses on every node. */
    public static final int CHANNEL = 7;

    /** Remote compare-and-swap: a = compare, b = swap. */
    public static final int CAS = 1;
    /** Remote fetch-and-op SUM: a = addend. */
    public static final int FETCH_ADD = 2;
    /** Remote fetch-and-op REPLACE: a = new value. */
    public static final int SWAP = 3;
    private static final int PUT = 4;
    private static final int REPLY = 5;
    private static final int ACK = 6;
    private static final int MESSAGE = 7;

    private static final int ATOMIC_DONE = 1;
    private static final int PUT_DONE = 2;
    private static final int MESSAGE_DONE = 3;

    private final DhtContext dht;
    private final Cluster cluster;
    private final DhtCosts costs;
    private final long[] atomicFreeAt;
    private final Completion[] replies;
    private final long[] outstandingPuts;
    private final boolean[] flushing;
    private final long[] issued;
    private final Counter atomics;
    private final Counter puts;
    private final Counter messages;

    private int[] slotSource = new int[64];
    private int[] slotTarget = new int[64];
    private int[] slotOp = new int[64];
    private long[] slotAddress = new long[64];
    private long[] slotA = new long[64];
    private long[] slotB = new long[64];
    private final IntArrayQueue freeSlots = new IntArrayQueue();
    private int slotsUsed;

    DhtFabric(DhtContext dht) {
        super(dht.simulator(), "dht_fabric");
        this.dht = dht;
        this.cluster = dht.cluster();
        this.costs = dht.costs();
        int ranks = dht.ranks();
        this.atomicFreeAt = new long[cluster.size()];
        this.replies = new Completion[ranks];
        this.outstandingPuts = new long[ranks];
        this.flushing = new boolean[ranks];
        this.issued = new long[ranks];
        this.atomics = counter("atomics", "operations", "remote atomics (compare-and-swap, fetch-and-op) executed");
        this.puts = counter("puts", "operations", "remote puts placed");
        this.messages = counter("messages", "messages", "active messages delivered");
        for (int n = 0; n < cluster.size(); n++) {
            cluster.node(n).endpoint().openDatagram(CHANNEL, this::arrive);
        }
    }

    /**
     * A blocking remote atomic on {@code target}'s volume: {@link #CAS}, {@link #FETCH_ADD} or
     * {@link #SWAP}; returns the old word once the reply's completion is read.
     */
    public long atomic(ProcessContext ctx, int rank, int target, int op, long address, long a, long b) {
        Completion c = reply(rank);
        c.reset();
        ctx.sleep(costs.postPs());
        send(rank, target, op, address, a, b, 16);
        long old = ctx.await(c);
        ctx.sleep(costs.completionPs());
        return old;
    }

    /** A non-blocking remote put of one word into {@code target}'s volume; {@link #flush} waits for it. */
    public void put(ProcessContext ctx, int rank, int target, long address, long value) {
        ctx.sleep(costs.postPs());
        outstandingPuts[rank]++;
        send(rank, target, PUT, address, value, 0, dht.elementBytes());
    }

    /** Waits until every put {@code rank} issued has been placed in the target's memory. */
    public void flush(ProcessContext ctx, int rank) {
        if (outstandingPuts[rank] == 0) {
            return;
        }
        Completion c = reply(rank);
        c.reset();
        flushing[rank] = true;
        ctx.await(c);
        flushing[rank] = false;
        ctx.sleep(costs.completionPs());
    }

    /**
     * An active message carrying {@code elem} to {@code target}: posted by the process (which
     * goes on at once), DMA-written into the target node's memory, then handed to
     * {@link DhtScheme#onMessage}.
     */
    public void message(ProcessContext ctx, int rank, int target, long elem) {
        ctx.sleep(costs.postPs());
        send(rank, target, MESSAGE, 0, elem, 0, dht.elementBytes());
    }

    /** Remote accesses (atomics, puts, messages) process {@code rank} has issued so far. */
    public long issued(int rank) {
        return issued[rank];
    }

    private Completion reply(int rank) {
        Completion c = replies[rank];
        if (c == null) {
            c = replies[rank] = new Completion("dht.rank" + rank + ".reply");
        }
        return c;
    }

    private void send(int source, int target, int op, long address, long a, long b, int length) {
        if (op != REPLY && op != ACK) {
            issued[source]++;
        }
        int srcNode = dht.nodeOf(source);
        int dstNode = dht.nodeOf(target);
        TransportEndpoint ep = cluster.node(srcNode).endpoint();
        Packet p = ep.newDatagram(dstNode, CHANNEL);
        p.opcode = op;
        p.messageId = source;
        p.key = target;
        p.address = address;
        p.offset = a;
        p.contentTag = b;
        p.length = length;
        ep.sendDatagram(p);
    }

    private SinkVerdict arrive(Packet p) {
        int op = p.opcode;
        int source = (int) p.messageId;
        int target = p.key;
        switch (op) {
            // Replies and acks travel back: their target is the process that issued the operation.
            case REPLY -> replies[target].complete(p.offset);
            case ACK -> {
                if (--outstandingPuts[target] == 0 && flushing[target]) {
                    replies[target].complete(0);
                }
            }
            case CAS, FETCH_ADD, SWAP -> {
                int node = dht.nodeOf(target);
                long start = Math.max(now(), atomicFreeAt[node]);
                atomicFreeAt[node] = start + costs.atomicPs();
                at(atomicFreeAt[node], ATOMIC_DONE, slot(source, target, op, p.address, p.offset, p.contentTag));
            }
            case PUT -> later(costs.dmaWritePs(), PUT_DONE, slot(source, target, op, p.address, p.offset, 0));
            case MESSAGE -> later(costs.dmaWritePs(), MESSAGE_DONE, slot(source, target, op, 0, p.offset, 0));
            default -> throw new IllegalStateException("unknown hashtable datagram opcode " + op);
        }
        return SinkVerdict.ACCEPT;
    }

    private long now() {
        return simulator().now();
    }

    private void later(long delay, int type, int slot) {
        simulator().schedule(delay, Band.HARDWARE, this, type, slot);
    }

    private void at(long time, int type, int slot) {
        simulator().scheduleAt(time, Band.HARDWARE, this, type, slot);
    }

    @Override
    public void handle(int type, long arg) {
        int s = (int) arg;
        int source = slotSource[s];
        int target = slotTarget[s];
        long address = slotAddress[s];
        long a = slotA[s];
        long b = slotB[s];
        int op = slotOp[s];
        freeSlots.addInt(s);
        Volume v = dht.volume(target);
        switch (type) {
            case ATOMIC_DONE -> {
                long old = switch (op) {
                    case CAS -> v.cas(address, a, b);
                    case FETCH_ADD -> v.fetchAndAdd(address, a);
                    default -> v.swap(address, a);
                };
                atomics.increment();
                send(target, source, REPLY, 0, old, 0, 8);
            }
            case PUT_DONE -> {
                v.write(address, a);
                puts.increment();
                send(target, source, ACK, 0, 0, 0, 0);
            }
            case MESSAGE_DONE -> {
                messages.increment();
                dht.scheme().onMessage(source, target, a);
            }
            default -> throw new IllegalStateException("unknown hashtable fabric event " + type);
        }
    }

    private int slot(int source, int target, int op, long address, long a, long b) {
        int s;
        if (!freeSlots.isEmpty()) {
            s = freeSlots.removeInt();
        } else {
            if (slotsUsed == slotOp.length) {
                int n = slotOp.length * 2;
                slotSource = Arrays.copyOf(slotSource, n);
                slotTarget = Arrays.copyOf(slotTarget, n);
                slotOp = Arrays.copyOf(slotOp, n);
                slotAddress = Arrays.copyOf(slotAddress, n);
                slotA = Arrays.copyOf(slotA, n);
                slotB = Arrays.copyOf(slotB, n);
            }
            s = slotsUsed++;
        }
        slotSource[s] = source;
        slotTarget[s] = target;
        slotOp[s] = op;
        slotAddress[s] = address;
        slotA[s] = a;
        slotB[s] = b;
        return s;
    }
}
