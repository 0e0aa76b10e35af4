package org.pagefabric.active;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.PcieParameters;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * The initiator's side of Active Access (002 §3, §3.6) for many small accesses between many
 * processes: {@link #put} (one word into a page of a remote domain), {@link #flush} (an active
 * flush: a get of the target's flushing page that completes once the target has consumed every
 * entry its log held when the get arrived) and {@link #reply} (the alternative consistency
 * scheme: a handler answers with an active put to a designated page of the source).
 *
 * <p>Why datagrams and an explicit ingress: at 002 §5.2's scale (1024 processes, tens of
 * thousands of one-word inserts each) one reliable connection per process pair is not feasible,
 * and 002 §5.2 itself emulates RMA with one message per put and a pair per get. Accesses
 * therefore travel as datagrams over the cluster's simulated links and switch (their contention
 * is real), and on arrival each enters its node's IOMMU <em>as a DMA access</em>
 * ({@link #ingress}): the {@link org.pagefabric.hw.iommu.aa.ActiveAccessUnit} is told of the
 * packet, the IOMMU translates it through its context cache, IOTLB and page walk, and the
 * interceptor reads WL/WLD/RL/RLD/E and the IUID from the entry and logs the put (with its data)
 * or activates the flushing buffer. Nothing here decides where an access goes: the page table
 * does. The IOMMU serves its node's accesses one at a time, each taking its translation's cost
 * (so IOTLB size, ways and eviction matter); a packet the unit holds back for want of log room
 * (PCIe backpressure, 002 §3.7) stops the node's ingress until the log's owner drains it, so
 * nothing is lost and nothing overtakes it.
 *
 * <p>Per-access state lives in primitive rings; the steady state allocates nothing but a
 * flush's completion.
 */
public final class ActiveChannel extends Component {
    /** The datagram channel Active Access uses on every node. */
    public static final int CHANNEL = 11;

    private static final int PUT = 1;
    private static final int FLUSH = 2;
    private static final int FLUSH_DONE = 3;

    private static final int EV_SERVE = 1;

    private final Cluster cluster;
    private final long postPs;
    private final long completionPs;
    private final long dmaWritePs;
    private final Translation translation = new Translation();
    private final Packet scratch;
    private final List<ActiveDomain> domains = new ArrayList<>();
    private int[] domainNode = new int[16];
    private final List<Completion> waiters = new ArrayList<>();
    private final Counter puts;
    private final Counter flushes;
    private final Counter replies;
    private final Counter held;
    private final Counter refused;
    private final Counter iommuBusyPs;

    // per node: the IOMMU ingress queue (a ring of accesses) and its state
    private final Ring[] ingress;
    private final boolean[] serving;
    private final boolean[] blocked;
    private final ActiveNode[] nodes;
    private long nextTag;

    // pending active flushes: domain, entries to consume, requester node and waiter
    private int[] pendDomain = new int[8];
    private long[] pendUntil = new long[8];
    private int[] pendNode = new int[8];
    private int[] pendWaiter = new int[8];
    private int pending;

    /** A channel over {@code cluster}, costs from {@code profile}. */
    public ActiveChannel(Cluster cluster, Profile profile) {
        super(cluster.simulator(), "aa_channel");
        this.cluster = cluster;
        long wqe = profile.time(NicParameters.WQE_PROCESSING);
        this.postPs = profile.time(NicParameters.DOORBELL) + wqe;
        this.completionPs = profile.time(NicParameters.COMPLETION);
        this.dmaWritePs = wqe + profile.time(PcieParameters.LATENCY);
        this.scratch = new org.pagefabric.hw.net.PacketPool(1, Math.max(8, cluster.node(0).endpoint().datagramCapacity()))
                .acquire();
        int n = cluster.size();
        this.ingress = new Ring[n];
        this.serving = new boolean[n];
        this.blocked = new boolean[n];
        this.nodes = new ActiveNode[n];
        for (int i = 0; i < n; i++) {
            ingress[i] = new Ring();
            cluster.node(i).endpoint().openDatagram(CHANNEL, this::arrive);
        }
        this.puts = counter("puts", "accesses", "active puts that passed a target IOMMU");
        this.flushes = counter("flushes", "flushes", "active flushes completed");
        this.replies = counter("replies", "puts", "reply puts sent by handlers");
        this.held = counter("held", "times", "accesses held back by a full access log or tag buffer (backpressure)");
        this.refused = counter("refused", "accesses", "accesses the IOMMU refused (fault)");
        this.iommuBusyPs = counter("iommu_busy_ps", "ps", "IOMMU time spent translating ingress accesses");
    }

    /**
     * Makes {@code domain} (on node {@code nodeIndex} of the cluster) addressable: returns its id
     * for {@link #put}, {@link #flush} and {@link #reply}.
     */
    public int register(ActiveDomain domain, int nodeIndex) {
        if (cluster.node(nodeIndex) != domain.node().node()) {
            throw new IllegalArgumentException("domain " + domain.iuid() + " is not on node " + nodeIndex);
        }
        if (nodes[nodeIndex] == null) {
            nodes[nodeIndex] = domain.node();
            int ni = nodeIndex;
            domain.node().afterDrain(d -> drained(ni, d));
        } else if (nodes[nodeIndex] != domain.node()) {
            throw new IllegalStateException("node " + nodeIndex + " has two Active Access units");
        }
        int id = domains.size();
        domains.add(domain);
        if (id == domainNode.length) {
            domainNode = Arrays.copyOf(domainNode, id * 2);
        }
        domainNode[id] = nodeIndex;
        return id;
    }

    /** The domain with id {@code id}. */
    public ActiveDomain domain(int id) {
        return domains.get(id);
    }

    /** The node of domain {@code id}. */
    public int nodeOf(int id) {
        return domainNode[id];
    }

    /**
     * An active put of {@code length} bytes (the first 8 the word {@code value}) from node
     * {@code srcNode} to address {@code va} of domain {@code target}: the process posts it and
     * goes on (puts are non-blocking; {@link #flush} waits for their processing).
     */
    public void put(ProcessContext ctx, int srcNode, int target, long va, long value, int length) {
        ctx.sleep(postPs);
        send(srcNode, domainNode[target], PUT, target, va, value, length, 0);
    }

    /**
     * A reply put from a handler running on node {@code srcNode} to address {@code va} of domain
     * {@code source} (002 §3.6, alternative mechanism: the reply tells the source which entries
     * were processed; the source's handler or poller reads it from its own log). Returns what
     * posting it costs the handler.
     */
    public long reply(int srcNode, int source, long va, long value) {
        replies.increment();
        send(srcNode, domainNode[source], PUT, source, va, value, 8, 0);
        return postPs;
    }

    /**
     * An active flush from a process on node {@code srcNode} of domain {@code target}: a get of
     * the target's flushing page; returns once the target's IOMMU has seen the log consumed up
     * to what it held when the get arrived, and the reply is back.
     */
    public void flush(ProcessContext ctx, int srcNode, int target) {
        Completion c = new Completion("aa.flush");
        int waiter = waiters.size();
        waiters.add(c);
        ctx.sleep(postPs);
        send(srcNode, domainNode[target], FLUSH, target, domains.get(target).flushingPage(), 0, 8, waiter);
        ctx.await(c);
        waiters.set(waiter, null);
        ctx.sleep(completionPs);
    }

    /**
     * An access that reached node {@code node}'s NIC enters its IOMMU: for a transport other
     * than this channel's datagrams (the hashtable's fabric) to hand in a put it carried.
     *
     * @param requester the requesting device or source node (the tag buffer's requester)
     */
    public void ingressPut(int node, int target, long va, long value, int length, int requester) {
        enqueue(node, PUT, target, va, value, length, requester, 0);
    }

    private void send(int srcNode, int dstNode, int op, int target, long va, long value, int length, int waiter) {
        TransportEndpoint ep = cluster.node(srcNode).endpoint();
        Packet p = ep.newDatagram(dstNode, CHANNEL);
        p.opcode = op;
        p.key = target;
        p.address = va;
        p.offset = value;
        p.contentTag = waiter;
        p.messageId = srcNode;
        p.length = length;
        ep.sendDatagram(p);
    }

    private SinkVerdict arrive(Packet p) {
        int node = p.dst;
        switch (p.opcode) {
            case PUT, FLUSH -> {
                // the NIC's DMA write (or read request) crosses PCIe before the IOMMU sees it
                enqueueLater(node, p.opcode, p.key, p.address, p.offset, p.length, (int) p.messageId,
                        (int) p.contentTag);
            }
            case FLUSH_DONE -> {
                Completion c = waiters.get((int) p.contentTag);
                c.complete();
            }
            default -> throw new IllegalStateException("unknown Active Access datagram opcode " + p.opcode);
        }
        return SinkVerdict.ACCEPT;
    }

    private void enqueueLater(int node, int op, int target, long va, long value, int length, int requester, int waiter) {
        Ring r = ingress[node];
        r.add(op, target, va, value, length, requester, waiter, simulator().now() + dmaWritePs);
        if (!serving[node] && !blocked[node]) {
            serving[node] = true;
            simulator().schedule(dmaWritePs, Band.HARDWARE, this, EV_SERVE, node);
        }
    }

    private void enqueue(int node, int op, int target, long va, long value, int length, int requester, int waiter) {
        Ring r = ingress[node];
        r.add(op, target, va, value, length, requester, waiter, simulator().now());
        if (!serving[node] && !blocked[node]) {
            serving[node] = true;
            simulator().schedule(0, Band.HARDWARE, this, EV_SERVE, node);
        }
    }

    @Override
    public void handle(int type, long arg) {
        if (type != EV_SERVE) {
            throw new IllegalStateException("unknown Active Access channel event " + type);
        }
        serve((int) arg);
    }

    /** The IOMMU takes the oldest access of the node, if it has arrived. */
    private void serve(int node) {
        Ring r = ingress[node];
        if (r.isEmpty() || blocked[node]) {
            serving[node] = false;
            return;
        }
        long now = simulator().now();
        if (r.readyAt() > now) {
            simulator().scheduleAt(r.readyAt(), Band.HARDWARE, this, EV_SERVE, node);
            return;
        }
        int target = r.target();
        ActiveDomain d = domains.get(target);
        ActiveNode an = d.node();
        long cost;
        if (r.op() == PUT) {
            int len = r.length();
            long value = r.value();
            for (int i = 0; i < 8; i++) {
                scratch.bytes[i] = (byte) (value >>> (8 * i));
            }
            if (len > 8) {
                Arrays.fill(scratch.bytes, 8, Math.min(len, scratch.bytes.length), (byte) 0);
            }
            scratch.hasBytes = true;
            scratch.length = len;
            scratch.offset = 0;
            an.unit().beginPacket(r.requester(), ++nextTag, r.va(), len, 0, scratch, len);
            boolean ok = an.node().iommu().translate(d.pdid(), r.va(), true, translation);
            cost = translation.costPs();
            if (an.unit().stalled()) {
                held.increment();
                blocked[node] = true; // backpressure: the head waits for the log's owner to drain it
                serving[node] = false;
                // A full log is the free-space threshold of 002 §3.5: its owner is notified now,
                // whatever the interrupt batch, or a batch larger than the log would never come.
                d.kick();
                iommuBusyPs.add(cost);
                return;
            }
            if (translation.outcome() == Translation.ABSORBED) {
                // The log writes (entry header and data) are posted memory writes: they take memory
                // time, not the translation pipeline's, so the IOMMU is busy only translating.
                cost = Math.max(0, cost - 2 * an.costs().logAccessPs());
            }
            if (ok) {
                // not an active page with writes blocked: the data reaches memory
                an.node().kernel().write(d.process(), r.va(), scratch.bytes, 0, Math.min(len, scratch.bytes.length));
            } else if (translation.outcome() != Translation.ABSORBED) {
                refused.increment();
            }
            puts.increment();
        } else {
            long page = r.va();
            an.unit().beginPacket(r.requester(), ++nextTag, page, 8, 0, null, 8);
            an.node().iommu().translate(d.pdid(), page, false, translation);
            cost = translation.costPs();
            addPending(target, d.log().reserved(), r.requester(), r.waiter());
            completeFlushes(node, d);
        }
        r.poll();
        iommuBusyPs.add(cost);
        simulator().schedule(Math.max(1, cost), Band.HARDWARE, this, EV_SERVE, node);
    }

    private void drained(int node, ActiveDomain d) {
        completeFlushes(node, d);
        if (blocked[node]) {
            blocked[node] = false;
            if (!serving[node]) {
                serving[node] = true;
                simulator().schedule(0, Band.HARDWARE, this, EV_SERVE, node);
            }
        }
    }

    private void addPending(int domain, long until, int requesterNode, int waiter) {
        if (pending == pendDomain.length) {
            int n = pending * 2;
            pendDomain = Arrays.copyOf(pendDomain, n);
            pendUntil = Arrays.copyOf(pendUntil, n);
            pendNode = Arrays.copyOf(pendNode, n);
            pendWaiter = Arrays.copyOf(pendWaiter, n);
        }
        pendDomain[pending] = domain;
        pendUntil[pending] = until;
        pendNode[pending] = requesterNode;
        pendWaiter[pending] = waiter;
        pending++;
    }

    /** Answers the flushes of {@code d} whose entries are consumed: the IOMMU finishes their gets. */
    private void completeFlushes(int node, ActiveDomain d) {
        long consumed = d.log().consumed();
        for (int i = 0; i < pending; ) {
            if (domains.get(pendDomain[i]) == d && consumed >= pendUntil[i]) {
                flushes.increment();
                send(node, pendNode[i], FLUSH_DONE, pendDomain[i], 0, 0, 8, pendWaiter[i]);
                pending--;
                pendDomain[i] = pendDomain[pending];
                pendUntil[i] = pendUntil[pending];
                pendNode[i] = pendNode[pending];
                pendWaiter[i] = pendWaiter[pending];
            } else {
                i++;
            }
        }
    }

    /** Active flushes completed so far. */
    public long flushesCompleted() {
        return flushes.value();
    }

    /** Accesses held back by backpressure so far. */
    public long heldBack() {
        return held.value();
    }

    /** Accesses the IOMMU refused so far. */
    public long refusedAccesses() {
        return refused.value();
    }

    /** Flushes waiting for their log to be consumed. */
    public int pendingFlushes() {
        return pending;
    }

    /** The node an Active Access node's hardware belongs to, for callers that hold a node. */
    public int indexOf(Node node) {
        for (int i = 0; i < cluster.size(); i++) {
            if (cluster.node(i) == node) {
                return i;
            }
        }
        throw new IllegalArgumentException(node.name() + " is not in the cluster");
    }

    /** A FIFO of accesses in primitive arrays. */
    private static final class Ring {
        private int[] op = new int[16];
        private int[] target = new int[16];
        private long[] va = new long[16];
        private long[] value = new long[16];
        private int[] length = new int[16];
        private int[] requester = new int[16];
        private int[] waiter = new int[16];
        private long[] ready = new long[16];
        private int head;
        private int size;

        void add(int o, int t, long a, long v, int l, int req, int w, long at) {
            if (size == op.length) {
                grow();
            }
            int i = (head + size) & (op.length - 1);
            op[i] = o;
            target[i] = t;
            va[i] = a;
            value[i] = v;
            length[i] = l;
            requester[i] = req;
            waiter[i] = w;
            ready[i] = at;
            size++;
        }

        private void grow() {
            int n = op.length * 2;
            op = unwrap(op, n);
            target = unwrap(target, n);
            length = unwrap(length, n);
            requester = unwrap(requester, n);
            waiter = unwrap(waiter, n);
            va = unwrap(va, n);
            value = unwrap(value, n);
            ready = unwrap(ready, n);
            head = 0;
        }

        private int[] unwrap(int[] a, int n) {
            int[] b = new int[n];
            for (int k = 0; k < size; k++) {
                b[k] = a[(head + k) & (a.length - 1)];
            }
            return b;
        }

        private long[] unwrap(long[] a, int n) {
            long[] b = new long[n];
            for (int k = 0; k < size; k++) {
                b[k] = a[(head + k) & (a.length - 1)];
            }
            return b;
        }

        boolean isEmpty() {
            return size == 0;
        }

        int op() {
            return op[head];
        }

        int target() {
            return target[head];
        }

        long va() {
            return va[head];
        }

        long value() {
            return value[head];
        }

        int length() {
            return length[head];
        }

        int requester() {
            return requester[head];
        }

        int waiter() {
            return waiter[head];
        }

        long readyAt() {
            return ready[head];
        }

        void poll() {
            head = (head + 1) & (op.length - 1);
            size--;
        }
    }
}
