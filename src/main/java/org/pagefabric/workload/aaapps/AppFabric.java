package org.pagefabric.workload.aaapps;

import java.util.Arrays;
import org.agrona.collections.IntArrayQueue;
import org.pagefabric.active.ActiveCosts;
import org.pagefabric.active.Notification;
import org.pagefabric.hw.iommu.aa.AccessKind;
import org.pagefabric.hw.iommu.aa.AccessLog;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.config.Profile;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.collect.LongQuadQueue;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.workload.dht.DhtCosts;

/**
 * The remote operations of the Active Access applications at the scale of 002 §5.2 (up to 1024
 * processes, 32 per node), carried as datagrams over the cluster's simulated network as 002
 * emulates RMA: a put or a message is one-way, a get or an atomic a request and a reply, and data
 * longer than a packet travels as several datagrams whose payload holds the real words. The
 * target NIC DMA-reads what a get returns and DMA-writes puts and messages; its atomic unit runs
 * one fetch-and-add at a time. Processes are light: process {@code r} runs on node
 * {@code r / processesPerNode}.
 *
 * <p>Under {@link AppScheme#ACTIVE} every process has an access log of {@code aa.access_log.size}
 * bytes, entries of {@link AccessLog#footprint} bytes each: the target's IOMMU appends an entry
 * for each counted put (metadata, 002 §4.2: W=1 WL=1 WLD=0) or each logged get (the data the
 * reply carries, 002 §4.4: RL=1 RLD=1) as it passes, and a polling thread of the process drains
 * the log ({@code aa.log.access} per entry and per 64 bytes of data, as {@code ActiveDomain}
 * does). A full log holds the access back in the NIC (backpressure) until the poller frees room;
 * nothing is dropped. The IOMMU's tag buffer and per-packet reassembly are the hardware model's
 * ({@code hw.iommu.aa}), exercised through the NIC's IOMMU path by the tests; here an access
 * reaches the log whole, as the reply's data does.
 *
 * <p>Under {@link AppScheme#RMA} a logged get's data goes back to the target in a put (DMA-written
 * into its log, acknowledged, waited for by {@link #flushLogs}); under {@link AppScheme#AM} in a
 * message that the target process copies into its log when it polls ({@link #pollInbox}).
 */
final class AppFabric extends Component {
    /** The datagram channel the applications use on every node. */
    static final int CHANNEL = 11;
    /** Memory region of a process that gets read: its data. */
    static final int DATA = 0;
    /** Memory region of a process that gets read: its descriptors (sort bucket offsets). */
    static final int DESCRIPTORS = 1;
    /** Kind of an inbox entry: a logged get's data arrived in a message (AM). */
    static final int INBOX_LOG = 1;
    /** Kind of an inbox entry: an A-KV access. */
    static final int INBOX_AKV = 2;
    private static final int MAX_ROUNDS = 64;

    private static final int GET_REQ = 1;
    private static final int GET_REPLY = 2;
    private static final int PUT = 3;
    private static final int FAA = 4;
    private static final int FAA_REPLY = 5;
    private static final int AKV = 6;
    private static final int LOG_PIECE = 7;
    private static final int LOG_ACK = 8;
    private static final int VEC = 9;

    private static final int EV_READ = 1;
    private static final int EV_REPLY = 2;
    private static final int EV_GET_DONE = 3;
    private static final int EV_PUT = 4;
    private static final int EV_FAA = 5;
    private static final int EV_AKV = 6;
    private static final int EV_LOGGED = 7;
    private static final int EV_VEC_DONE = 8;
    private static final int EV_DRAIN = 9;
    private static final int EV_DRAINED = 10;

    /** What the application does with what the fabric delivers. */
    interface Hooks {
        /** The words of {@code region} of process {@code rank} that gets read. */
        long[] memory(int rank, int region);

        /** A counted put landed in the memory of {@code target}. */
        void putLanded(int target, int source, long page, long value);

        /** Fetch-and-add on {@code target}'s counter of {@code page}; returns the old count. */
        long fetchAdd(int target, long page);

        /** The target's poller consumed a log entry; returns the handler's cost, picoseconds. */
        long handleLogEntry(int target, int kind, int source, long a, long b, int bytes);

        /** A get's data is in the target's log (RMA at the DMA write, AM when the target handles the message). */
        void logged(int target, int source, long seq, long digest);

        /** The target process handles an A-KV access; returns the handler's cost beyond reading the message. */
        long akv(int target, int source, long page, long value);
    }

    private final Cluster cluster;
    private final Hooks hooks;
    private final DhtCosts costs;
    private final ActiveCosts aa;
    private final AppScheme scheme;
    private final Notification notification;
    private final boolean logGets;
    private final boolean countPuts;
    private final int processes;
    private final int perNode;
    private final int wordsPerDatagram;
    private final long readPs;

    private final Completion[] done;
    private final long[][] getDest;
    private final int[] getDestIndex;
    private final int[] getLeft;
    private final long[] atomicFreeAt;
    private final long[] outstandingLogs;
    private final boolean[] flushing;
    private final long[] nodeBytes;
    private long bytes;
    private long datagrams;

    // Active Access logs, per process
    private final int[] logUsed;
    private final LongQuadQueue[] log;
    private final LongQuadQueue[] stalled;
    private final boolean[] draining;
    private final int[] freeing;
    private long lastHandledAt;
    private final Counter stalls;

    // logged gets sent back (RMA, AM): reassembly per (target, source)
    private final long[] pendingDigest;
    private final int[] pendingLeft;
    private final LongQuadQueue[] inbox;

    // Allreduce vectors, per (process, round)
    private final long[][][] vecRecv;
    private final int[][] vecLeft;
    private final Completion[][] vecDone;

    private int[] slotA = new int[64];
    private int[] slotB = new int[64];
    private long[] slotX = new long[64];
    private long[] slotY = new long[64];
    private long[] slotZ = new long[64];
    private final IntArrayQueue freeSlots = new IntArrayQueue();
    private int slotsUsed;

    /**
     * @param logGets   whether gets are logged at the target (logged gets, sort)
     * @param countPuts whether puts are counted at the target (access counter)
     */
    AppFabric(Simulator sim, Cluster cluster, Profile profile, Hooks hooks, AppScheme scheme,
              Notification notification, int processes, int perNode, boolean logGets, boolean countPuts) {
        super(sim, "aa_apps");
        this.cluster = cluster;
        this.hooks = hooks;
        this.costs = DhtCosts.of(profile);
        this.aa = ActiveCosts.of(profile);
        this.scheme = scheme;
        this.notification = notification;
        this.logGets = logGets;
        this.countPuts = countPuts;
        this.processes = processes;
        this.perNode = perNode;
        int capacity = cluster.node(0).endpoint().datagramCapacity();
        if (capacity < 8) {
            throw new IllegalArgumentException("transport.mtu leaves " + capacity + " B per datagram; the applications"
                    + " need at least one 8-byte word");
        }
        this.wordsPerDatagram = capacity / 8;
        // A get's reply: the NIC fetches the request and DMA-reads host memory (as its atomic unit does).
        this.readPs = costs.atomicPs();
        this.done = new Completion[processes];
        this.getDest = new long[processes][];
        this.getDestIndex = new int[processes];
        this.getLeft = new int[processes];
        this.atomicFreeAt = new long[cluster.size()];
        this.outstandingLogs = new long[processes];
        this.flushing = new boolean[processes];
        this.nodeBytes = new long[cluster.size()];
        boolean active = scheme == AppScheme.ACTIVE;
        this.logUsed = new int[active ? processes : 0];
        this.log = new LongQuadQueue[active ? processes : 0];
        this.stalled = new LongQuadQueue[active ? processes : 0];
        this.draining = new boolean[active ? processes : 0];
        this.freeing = new int[active ? processes : 0];
        for (int r = 0; r < log.length; r++) {
            log[r] = new LongQuadQueue();
            stalled[r] = new LongQuadQueue();
        }
        this.stalls = counter("logStalls", "accesses", "accesses held back by a full access log (backpressure)");
        boolean sendBack = logGets && (scheme == AppScheme.RMA || scheme == AppScheme.AM);
        this.pendingDigest = new long[sendBack ? processes * processes : 0];
        this.pendingLeft = new int[sendBack ? processes * processes : 0];
        boolean polls = scheme == AppScheme.AM || scheme == AppScheme.AKV;
        this.inbox = new LongQuadQueue[polls ? processes : 0];
        for (int r = 0; r < inbox.length; r++) {
            inbox[r] = new LongQuadQueue();
        }
        boolean vectors = scheme == AppScheme.ALLREDUCE;
        this.vecRecv = new long[vectors ? processes : 0][][];
        this.vecLeft = new int[vectors ? processes : 0][];
        this.vecDone = new Completion[vectors ? processes : 0][];
        for (int n = 0; n < cluster.size(); n++) {
            cluster.node(n).endpoint().openDatagram(CHANNEL, this::arrive);
        }
    }

    /** Costs read from the profile. */
    DhtCosts costs() {
        return costs;
    }

    /** The node of process {@code rank}. */
    int nodeOf(int rank) {
        return rank / perNode;
    }

    /** The words one datagram carries. */
    int wordsPerDatagram() {
        return wordsPerDatagram;
    }

    /**
     * A blocking get of {@code words} words at {@code wordIndex} of {@code region} of process
     * {@code target} into {@code dest} from {@code destIndex}; {@code seq} names it in the log.
     */
    void get(ProcessContext ctx, int rank, int target, int region, int wordIndex, int words, long[] dest,
             int destIndex, long seq) {
        Completion c = completion(rank);
        c.reset();
        getDest[rank] = dest;
        getDestIndex[rank] = destIndex;
        getLeft[rank] = words;
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, GET_REQ, 16);
        p.address = (long) region << 56 | wordIndex;
        p.offset = words;
        p.contentTag = seq;
        send(p);
        ctx.await(c);
        getDest[rank] = null;
        ctx.sleep(costs.completionPs());
    }

    /** A non-blocking put of one word to {@code page} of process {@code target} (an access to its data structure). */
    void put(ProcessContext ctx, int rank, int target, long page, long value, int length) {
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, PUT, length);
        p.address = page;
        p.offset = value;
        send(p);
    }

    /** A blocking remote fetch-and-add of 1 on {@code target}'s counter of {@code page}; returns the old count. */
    long fetchAdd(ProcessContext ctx, int rank, int target, long page) {
        Completion c = completion(rank);
        c.reset();
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, FAA, 16);
        p.address = page;
        send(p);
        long old = ctx.await(c);
        ctx.sleep(costs.completionPs());
        return old;
    }

    /** An active message of one access to the target's key-value store (A-KV); the process goes on at once. */
    void akv(ProcessContext ctx, int rank, int target, long page, long value, int length) {
        ctx.sleep(costs.postPs());
        Packet p = datagram(rank, target, AKV, length);
        p.address = page;
        p.offset = value;
        send(p);
    }

    /**
     * Sends a get's data back to {@code target} to be logged there: a put (RMA) or a message (AM)
     * of {@code words} words from {@code src} at {@code from}; non-blocking.
     */
    void sendBack(ProcessContext ctx, int rank, int target, long seq, long[] src, int from, int words) {
        ctx.sleep(costs.postPs());
        if (scheme == AppScheme.RMA) {
            outstandingLogs[rank]++;
        }
        for (int off = 0; off < words; off += wordsPerDatagram) {
            int n = Math.min(wordsPerDatagram, words - off);
            Packet p = datagram(rank, target, LOG_PIECE, n * 8);
            p.address = seq;
            p.offset = off;
            p.contentTag = words;
            pack(p, src, from + off, n);
            send(p);
        }
    }

    /** Waits until every put that sent a get's data back has been placed in its target's log (RMA). */
    void flushLogs(ProcessContext ctx, int rank) {
        if (outstandingLogs[rank] == 0) {
            return;
        }
        Completion c = completion(rank);
        c.reset();
        flushing[rank] = true;
        ctx.await(c);
        flushing[rank] = false;
        ctx.sleep(costs.completionPs());
    }

    /** Sends {@code vec} to {@code target} as round {@code round} of an allreduce; non-blocking. */
    void sendVector(ProcessContext ctx, int rank, int target, int round, long[] vec) {
        ctx.sleep(costs.postPs());
        for (int off = 0; off < vec.length; off += wordsPerDatagram) {
            int n = Math.min(wordsPerDatagram, vec.length - off);
            Packet p = datagram(rank, target, VEC, n * 8);
            p.address = round;
            p.offset = off;
            p.contentTag = vec.length;
            pack(p, vec, off, n);
            send(p);
        }
    }

    /** Waits for the vector of round {@code round} sent to {@code rank}, of {@code length} words. */
    long[] awaitVector(ProcessContext ctx, int rank, int round, int length) {
        vector(rank, round, length);
        ctx.await(vecDone[rank][round]);
        ctx.sleep(costs.completionPs());
        long[] v = vecRecv[rank][round];
        vecRecv[rank][round] = null;
        return v;
    }

    /**
     * The target process polls its receive buffer (AM, A-KV): handles every waiting message and
     * returns what that cost, picoseconds: one poll, one memory access per 64 bytes to take each
     * message out, and the handler's work.
     */
    long pollInbox(int rank) {
        long cost = costs.pollPs();
        LongQuadQueue q = inbox[rank];
        while (!q.isEmpty()) {
            int kind = (int) (q.head(0) >>> 32);
            int source = (int) q.head(0);
            long x = q.head(1);
            long y = q.head(2);
            int n = (int) q.head(3);
            q.remove();
            cost += costs.memoryPs() * (1 + (n + 63) / 64);
            if (kind == INBOX_LOG) {
                hooks.logged(rank, source, x, y);
            } else {
                cost += hooks.akv(rank, source, x, y);
            }
        }
        return cost;
    }

    /** When the last Active Access log entry was handled, picoseconds. */
    long lastHandledAt() {
        return lastHandledAt;
    }

    /** Accesses held back by a full access log so far. */
    long stalls() {
        return stalls.value();
    }

    /** Payload bytes of every datagram sent. */
    long bytes() {
        return bytes;
    }

    /** Datagrams sent. */
    long datagrams() {
        return datagrams;
    }

    /** Payload bytes sent plus received by node {@code n}'s NIC. */
    long nodeBytes(int n) {
        return nodeBytes[n];
    }

    /** An order-sensitive digest of {@code n} words from {@code from}, position counted from {@code position}. */
    static long digest(long[] words, int from, int n, int position) {
        long d = 0;
        for (int k = 0; k < n; k++) {
            d += RandomStream.mix64(words[from + k] + (position + k + 1) * 0x9E3779B97F4A7C15L);
        }
        return d;
    }

    private Completion completion(int rank) {
        Completion c = done[rank];
        if (c == null) {
            c = done[rank] = new Completion("aa_apps.rank" + rank);
        }
        return c;
    }

    private void vector(int rank, int round, int length) {
        if (round >= MAX_ROUNDS) {
            throw new IllegalStateException("allreduce round " + round + " beyond " + MAX_ROUNDS);
        }
        if (vecRecv[rank] == null) {
            vecRecv[rank] = new long[MAX_ROUNDS][];
            vecLeft[rank] = new int[MAX_ROUNDS];
            vecDone[rank] = new Completion[MAX_ROUNDS];
        }
        if (vecRecv[rank][round] == null) {
            vecRecv[rank][round] = new long[length];
            vecLeft[rank][round] = length;
            vecDone[rank][round] = new Completion("aa_apps.rank" + rank + ".round" + round);
        }
    }

    private Packet datagram(int source, int target, int op, int length) {
        TransportEndpoint ep = cluster.node(nodeOf(source)).endpoint();
        Packet p = ep.newDatagram(nodeOf(target), CHANNEL);
        p.opcode = op;
        p.messageId = source;
        p.key = target;
        p.length = length;
        return p;
    }

    private void send(Packet p) {
        bytes += p.length;
        datagrams++;
        nodeBytes[p.src] += p.length;
        nodeBytes[p.dst] += p.length;
        cluster.node(p.src).endpoint().sendDatagram(p);
    }

    private static void pack(Packet p, long[] src, int from, int n) {
        byte[] b = p.bytes;
        for (int k = 0; k < n; k++) {
            long v = src[from + k];
            for (int i = 0; i < 8; i++) {
                b[8 * k + i] = (byte) (v >>> (8 * i));
            }
        }
        p.hasBytes = true;
    }

    private static long word(Packet p, int k) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (p.bytes[8 * k + i] & 0xFF);
        }
        return v;
    }

    private SinkVerdict arrive(Packet p) {
        int source = (int) p.messageId;
        int target = p.key;
        switch (p.opcode) {
            case GET_REQ -> later(readPs, EV_READ, slot(source, target, p.address, p.offset, p.contentTag));
            case GET_REPLY -> {
                // replies travel back: key is the process that asked
                long[] dest = getDest[target];
                int n = p.length / 8;
                int at = getDestIndex[target] + (int) p.offset;
                for (int k = 0; k < n; k++) {
                    dest[at + k] = word(p, k);
                }
                getLeft[target] -= n;
                if (getLeft[target] == 0) {
                    later(costs.dmaWritePs(), EV_GET_DONE, target);
                }
            }
            case PUT -> later(costs.dmaWritePs(), EV_PUT, slot(source, target, p.address, p.offset, p.length));
            case FAA -> {
                int node = nodeOf(target);
                long start = Math.max(sim.now(), atomicFreeAt[node]);
                atomicFreeAt[node] = start + costs.atomicPs();
                sim.scheduleAt(atomicFreeAt[node], Band.HARDWARE, this, EV_FAA, slot(source, target, p.address, 0, 0));
            }
            case FAA_REPLY -> completion(target).complete(p.offset);
            case AKV -> later(costs.dmaWritePs(), EV_AKV, slot(source, target, p.address, p.offset, p.length));
            case LOG_PIECE -> logPiece(p, source, target);
            case LOG_ACK -> {
                if (--outstandingLogs[target] == 0 && flushing[target]) {
                    completion(target).complete(0);
                }
            }
            case VEC -> {
                int round = (int) p.address;
                vector(target, round, (int) p.contentTag);
                long[] v = vecRecv[target][round];
                int n = p.length / 8;
                for (int k = 0; k < n; k++) {
                    v[(int) p.offset + k] = word(p, k);
                }
                vecLeft[target][round] -= n;
                if (vecLeft[target][round] == 0) {
                    later(costs.dmaWritePs(), EV_VEC_DONE, (long) target * MAX_ROUNDS + round);
                }
            }
            default -> throw new IllegalStateException("unknown application datagram opcode " + p.opcode);
        }
        return SinkVerdict.ACCEPT;
    }

    private void logPiece(Packet p, int source, int target) {
        int pair = target * processes + source;
        int n = p.length / 8;
        if (pendingLeft[pair] == 0) {
            pendingLeft[pair] = (int) p.contentTag;
            pendingDigest[pair] = 0;
        }
        long d = 0;
        for (int k = 0; k < n; k++) {
            d += RandomStream.mix64(word(p, k) + ((int) p.offset + k + 1) * 0x9E3779B97F4A7C15L);
        }
        pendingDigest[pair] += d;
        pendingLeft[pair] -= n;
        if (pendingLeft[pair] == 0) {
            later(costs.dmaWritePs(), EV_LOGGED, slot(source, target, p.address, pendingDigest[pair], (long) p.contentTag * 8));
        }
    }

    private void later(long delay, int type, long arg) {
        sim.schedule(delay, Band.HARDWARE, this, type, arg);
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_GET_DONE -> completion((int) arg).complete(0);
            case EV_VEC_DONE -> vecDone[(int) (arg / MAX_ROUNDS)][(int) (arg % MAX_ROUNDS)].complete();
            case EV_DRAIN -> drain((int) arg);
            case EV_DRAINED -> drained((int) arg);
            default -> slotEvent(type, (int) arg);
        }
    }

    private void slotEvent(int type, int s) {
        int source = slotA[s];
        int target = slotB[s];
        long x = slotX[s];
        long y = slotY[s];
        long z = slotZ[s];
        switch (type) {
            case EV_READ -> {
                if (scheme == AppScheme.ACTIVE && logGets) {
                    int words = (int) y;
                    if (!reserve(target, words * 8)) {
                        stalled[target].add((long) EV_READ << 32 | source, x, z, words);
                        freeSlots.addInt(s);
                        return;
                    }
                    logRead(source, target, x, words, z);
                    later(aa.logAccessPs(), EV_REPLY, s); // the IOMMU writes the entry as the reply passes
                    return;
                }
                reply(source, target, x, (int) y);
            }
            case EV_REPLY -> reply(source, target, x, (int) y);
            case EV_PUT -> {
                if (scheme == AppScheme.ACTIVE && countPuts) {
                    if (!reserve(target, 0)) {
                        stalled[target].add((long) EV_PUT << 32 | source, x, y, (int) z);
                        break;
                    }
                    logPut(source, target, x, y);
                }
                hooks.putLanded(target, source, x, y);
            }
            case EV_FAA -> {
                long old = hooks.fetchAdd(target, x);
                Packet p = datagram(target, source, FAA_REPLY, 8);
                p.key = source;
                p.offset = old;
                send(p);
            }
            case EV_AKV -> inbox[target].add((long) INBOX_AKV << 32 | source, x, y, (int) z);
            case EV_LOGGED -> {
                if (scheme == AppScheme.RMA) {
                    hooks.logged(target, source, x, y);
                    Packet p = datagram(target, source, LOG_ACK, 0);
                    p.key = source;
                    send(p);
                } else {
                    inbox[target].add((long) INBOX_LOG << 32 | source, x, y, (int) z);
                }
            }
            default -> throw new IllegalStateException("unknown application fabric event " + type);
        }
        freeSlots.addInt(s);
    }

    /** Sends the reply of a get: the words read, in datagrams, back to the process that asked. */
    private void reply(int source, int target, long address, int words) {
        long[] mem = hooks.memory(target, (int) (address >>> 56));
        int at = (int) (address & ((1L << 56) - 1));
        for (int off = 0; off < words; off += wordsPerDatagram) {
            int n = Math.min(wordsPerDatagram, words - off);
            Packet p = datagram(target, source, GET_REPLY, n * 8);
            p.key = source;
            p.messageId = target;
            p.offset = off;
            pack(p, mem, at + off, n);
            send(p);
        }
    }

    private boolean reserve(int target, int dataBytes) {
        int need = AccessLog.footprint(dataBytes);
        if (logUsed[target] + need > aa.logBytes() || !stalled[target].isEmpty() && !retrying) {
            stalls.increment();
            return false;
        }
        logUsed[target] += need;
        return true;
    }

    private boolean retrying;

    private void logRead(int source, int target, long address, int words, long seq) {
        long[] mem = hooks.memory(target, (int) (address >>> 56));
        int at = (int) (address & ((1L << 56) - 1));
        log[target].add((long) AccessKind.GET_DATA << 32 | source, seq, digest(mem, at, words, 0), words * 8);
        notifyPoller(target);
    }

    private void logPut(int source, int target, long page, long value) {
        log[target].add((long) AccessKind.PUT << 32 | source, page, value, 0);
        notifyPoller(target);
    }

    /** The poller notices the log's tail moved after one check of it (memory, scratchpad, or an interrupt). */
    private void notifyPoller(int target) {
        if (!draining[target]) {
            draining[target] = true;
            long check = switch (notification) {
                case SCRATCHPAD -> aa.scratchpadAccessPs();
                case POLLING -> aa.logAccessPs();
                case INTERRUPT -> costs.interruptPs();
            };
            later(check, EV_DRAIN, target);
        }
    }

    private void drain(int target) {
        long perEntry = notification == Notification.SCRATCHPAD ? aa.scratchpadAccessPs() : aa.logAccessPs();
        long cost = 0;
        int freed = 0;
        LongQuadQueue q = log[target];
        while (!q.isEmpty()) {
            int kind = (int) (q.head(0) >>> 32);
            int source = (int) q.head(0);
            long x = q.head(1);
            long y = q.head(2);
            int n = (int) q.head(3);
            q.remove();
            cost += perEntry + aa.logAccessPs() * ((n + 63) / 64) + hooks.handleLogEntry(target, kind, source, x, y, n);
            freed += AccessLog.footprint(AccessKind.carriesData(kind) ? n : 0);
        }
        freeing[target] = freed;
        lastHandledAt = Math.max(lastHandledAt, sim.now() + cost);
        later(cost, EV_DRAINED, target);
    }

    private void drained(int target) {
        logUsed[target] -= freeing[target];
        freeing[target] = 0;
        draining[target] = false;
        LongQuadQueue q = stalled[target];
        retrying = true;
        while (!q.isEmpty()) {
            int type = (int) (q.head(0) >>> 32);
            int source = (int) q.head(0);
            long x = q.head(1);
            long y = q.head(2);
            int n = (int) q.head(3);
            if (!reserve(target, type == EV_READ ? n * 8 : 0)) {
                break;
            }
            q.remove();
            if (type == EV_READ) {
                logRead(source, target, x, n, y);
                later(aa.logAccessPs(), EV_REPLY, slot(source, target, x, n, y));
            } else {
                logPut(source, target, x, y);
                hooks.putLanded(target, source, x, y);
            }
        }
        retrying = false;
        if (!log[target].isEmpty()) {
            notifyPoller(target);
        }
    }

    private int slot(int a, int b, long x, long y, long z) {
        int s;
        if (!freeSlots.isEmpty()) {
            s = freeSlots.removeInt();
        } else {
            if (slotsUsed == slotA.length) {
                int n = slotA.length * 2;
                slotA = Arrays.copyOf(slotA, n);
                slotB = Arrays.copyOf(slotB, n);
                slotX = Arrays.copyOf(slotX, n);
                slotY = Arrays.copyOf(slotY, n);
                slotZ = Arrays.copyOf(slotZ, n);
            }
            s = slotsUsed++;
        }
        slotA[s] = a;
        slotB[s] = b;
        slotX[s] = x;
        slotY[s] = y;
        slotZ[s] = z;
        return s;
    }
}
