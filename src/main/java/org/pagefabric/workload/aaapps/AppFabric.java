package org.pagefabric.workload.aaapps;

import org.pagefabric.active.ActiveCosts;
import org.pagefabric.active.Notification;
import org.pagefabric.comm.rma.DatagramRma;
import org.pagefabric.sim.collect.Slots;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.iommu.aa.AccessKind;
import org.pagefabric.hw.iommu.aa.AccessLog;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.collect.LongQuadQueue;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.workload.rma.RmaCosts;

/**
 * The remote operations of the Active Access applications at the scale of 002 §5.2 (up to 1024
 * processes, 32 per node): the RMA of {@link DatagramRma} (gets, one-way puts, fetch-and-add,
 * messages, multi-datagram transfers) and what the applications' schemes add on top of it.
 * Processes are light: process {@code r} runs on node {@code r / processesPerNode}.
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
 * <p>Under {@link AppScheme#RMA} a logged get's data goes back to the target in an acknowledged
 * transfer (DMA-written into its log, waited for by {@link #flushLogs}); under {@link AppScheme#AM}
 * in a message that the target process copies into its log when it polls ({@link #pollInbox}).
 * An Allreduce's vectors travel as transfers of their own ({@link #sendVector}).
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

    /** Transfer kinds on the {@link DatagramRma}. */
    private static final int LOGGED_DATA = 0;
    private static final int VECTOR = 1;

    private static final int EV_LOGGED = 1;
    private static final int EV_VEC_DONE = 2;
    private static final int EV_DRAIN = 3;
    private static final int EV_DRAINED = 4;
    /** Kind of a held access: a get whose reply waits for room in the log. */
    private static final int HELD_READ = 1;
    /** Kind of a held access: a counted put. */
    private static final int HELD_PUT = 2;

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

    private final Hooks hooks;
    private final RmaCosts costs;
    private final ActiveCosts aa;
    private final AppScheme scheme;
    private final Notification notification;
    private final boolean logGets;
    private final boolean countPuts;
    private final int processes;
    private final DatagramRma rma;

    // Active Access logs, per process
    private final int[] logUsed;
    private final LongQuadQueue[] log;
    private final LongQuadQueue[] stalled;
    private final boolean[] draining;
    private final int[] freeing;
    private long lastHandledAt;
    private final Counter stalls;
    private boolean retrying;

    // logged gets sent back (RMA, AM): reassembly per (target, source)
    private final long[] pendingDigest;
    private final int[] pendingLeft;
    private final LongQuadQueue[] inbox;
    private final Slots landings = new Slots();

    // Allreduce vectors, per (process, round)
    private final long[][][] vecRecv;
    private final int[][] vecLeft;
    private final Completion[][] vecDone;

    /**
     * @param logGets   whether gets are logged at the target (logged gets, sort)
     * @param countPuts whether puts are counted at the target (access counter)
     */
    AppFabric(Simulator sim, Cluster cluster, Profile profile, Hooks hooks, AppScheme scheme,
              Notification notification, int processes, int perNode, boolean logGets, boolean countPuts) {
        super(sim, "aa_apps");
        this.hooks = hooks;
        this.costs = RmaCosts.of(profile);
        this.aa = ActiveCosts.of(profile);
        this.scheme = scheme;
        this.notification = notification;
        this.logGets = logGets;
        this.countPuts = countPuts;
        this.processes = processes;
        int capacity = cluster.datagramCapacity();
        if (capacity < 8) {
            throw new IllegalArgumentException("transport.mtu leaves " + capacity + " B per datagram; the applications"
                    + " need at least one 8-byte word");
        }
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
        // puts are one-way: nothing flushes them, only the logging transfers of RMA are waited for
        this.rma = new DatagramRma(this, "rma", cluster, costs.datagram(), new Arrivals(), CHANNEL, processes, perNode, 8, false);
    }

    /** Costs read from the profile. */
    RmaCosts costs() {
        return costs;
    }

    /** The node of process {@code rank}. */
    int nodeOf(int rank) {
        return rma.nodeOf(rank);
    }

    /** The words one datagram carries. */
    int wordsPerDatagram() {
        return rma.wordsPerDatagram();
    }

    /**
     * A blocking get of {@code words} words at {@code wordIndex} of {@code region} of process
     * {@code target} into {@code dest} from {@code destIndex}; {@code seq} names it in the log.
     */
    void get(ProcessContext ctx, int rank, int target, int region, int wordIndex, int words, long[] dest,
             int destIndex, long seq) {
        rma.get(ctx, rank, target, region, wordIndex, words, dest, destIndex, seq);
    }

    /** A non-blocking put of one word to {@code page} of process {@code target} (an access to its data structure). */
    void put(ProcessContext ctx, int rank, int target, long page, long value) {
        rma.put(ctx, rank, target, page, value);
    }

    /** A blocking remote fetch-and-add of 1 on {@code target}'s counter of {@code page}; returns the old count. */
    long fetchAdd(ProcessContext ctx, int rank, int target, long page) {
        return rma.atomic(ctx, rank, target, DatagramRma.FETCH_ADD, page, 1, 0);
    }

    /** An active message of one access to the target's key-value store (A-KV); the process goes on at once. */
    void akv(ProcessContext ctx, int rank, int target, long page, long value) {
        rma.message(ctx, rank, target, page, value);
    }

    /**
     * Sends a get's data back to {@code target} to be logged there: an acknowledged transfer
     * (RMA) or a message (AM) of {@code words} words from {@code src} at {@code from}; non-blocking.
     */
    void sendBack(ProcessContext ctx, int rank, int target, long seq, long[] src, int from, int words) {
        rma.sendWords(ctx, rank, target, LOGGED_DATA, seq, src, from, words, scheme == AppScheme.RMA);
    }

    /** Waits until every transfer that sent a get's data back has been placed in its target's log (RMA). */
    void flushLogs(ProcessContext ctx, int rank) {
        rma.flush(ctx, rank);
    }

    /** Sends {@code vec} to {@code target} as round {@code round} of an allreduce; non-blocking. */
    void sendVector(ProcessContext ctx, int rank, int target, int round, long[] vec) {
        rma.sendWords(ctx, rank, target, VECTOR, round, vec, 0, vec.length, false);
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
        return rma.bytes();
    }

    /** Datagrams sent. */
    long datagrams() {
        return rma.datagrams();
    }

    /** Payload bytes sent plus received by node {@code n}'s NIC. */
    long nodeBytes(int n) {
        return rma.nodeBytes(n);
    }

    /** An order-sensitive digest of {@code n} words from {@code from}, position counted from {@code position}. */
    static long digest(long[] words, int from, int n, int position) {
        long d = 0;
        for (int k = 0; k < n; k++) {
            d += RandomStream.mix64(words[from + k] + (position + k + 1) * 0x9E3779B97F4A7C15L);
        }
        return d;
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

    /** What reaches a process's memory, under the run's scheme. */
    private final class Arrivals implements DatagramRma.Target {
        @Override
        public long[] memory(int target, int region) {
            return hooks.memory(target, region);
        }

        @Override
        public long atomic(int target, int source, int op, long page, long a, long b) {
            return hooks.fetchAdd(target, page);
        }

        @Override
        public void putLanded(int target, int source, long page, long value) {
            if (scheme == AppScheme.ACTIVE && countPuts) {
                if (!reserve(target, 0)) {
                    stalled[target].add((long) HELD_PUT << 32 | source, page, value, 8);
                    return;
                }
                logPut(source, target, page, value);
            }
            hooks.putLanded(target, source, page, value);
        }

        @Override
        public void messageLanded(int target, int source, long page, long value, int length) {
            inbox[target].add((long) INBOX_AKV << 32 | source, page, value, length);
        }

        @Override
        public long replyDelay(int target, int source, long address, int words, long seq) {
            if (scheme != AppScheme.ACTIVE || !logGets) {
                return DatagramRma.REPLY_NOW;
            }
            if (!reserve(target, words * 8)) {
                stalled[target].add((long) HELD_READ << 32 | source, address, seq, words);
                return DatagramRma.HOLD;
            }
            logRead(source, target, address, words, seq);
            return aa.logAccessPs(); // the IOMMU writes the entry as the reply passes
        }

        @Override
        public void wordsArrived(int kind, int target, int source, long tag, int offset, int total,
                                 DatagramRma.Piece piece) {
            int n = piece.words();
            if (kind == VECTOR) {
                int round = (int) tag;
                vector(target, round, total);
                long[] v = vecRecv[target][round];
                for (int k = 0; k < n; k++) {
                    v[offset + k] = piece.word(k);
                }
                vecLeft[target][round] -= n;
                if (vecLeft[target][round] == 0) {
                    schedule(costs.dmaWritePs(), EV_VEC_DONE, (long) target * MAX_ROUNDS + round);
                }
                return;
            }
            int pair = target * processes + source;
            if (pendingLeft[pair] == 0) {
                pendingLeft[pair] = total;
                pendingDigest[pair] = 0;
            }
            long d = 0;
            for (int k = 0; k < n; k++) {
                d += RandomStream.mix64(piece.word(k) + (offset + k + 1) * 0x9E3779B97F4A7C15L);
            }
            pendingDigest[pair] += d;
            pendingLeft[pair] -= n;
            if (pendingLeft[pair] == 0) {
                schedule(costs.dmaWritePs(), EV_LOGGED, landings.take(source, target, 0, tag, pendingDigest[pair],
                        (long) total * 8));
            }
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_VEC_DONE -> vecDone[(int) (arg / MAX_ROUNDS)][(int) (arg % MAX_ROUNDS)].complete();
            case EV_DRAIN -> drain((int) arg);
            case EV_DRAINED -> drained((int) arg);
            case EV_LOGGED -> logged((int) arg);
            default -> throw new IllegalStateException("unknown application fabric event " + type);
        }
    }

    /** A get's data sent back has been DMA-written at its target: in the log (RMA) or the inbox (AM). */
    private void logged(int s) {
        int source = landings.source(s);
        int target = landings.target(s);
        long seq = landings.x(s);
        long digest = landings.y(s);
        int bytes = (int) landings.z(s);
        landings.release(s);
        if (scheme == AppScheme.RMA) {
            hooks.logged(target, source, seq, digest);
            rma.acknowledge(target, source);
        } else {
            inbox[target].add((long) INBOX_LOG << 32 | source, seq, digest, bytes);
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
            schedule(check, EV_DRAIN, target);
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
        schedule(cost, EV_DRAINED, target);
    }

    private void drained(int target) {
        logUsed[target] -= freeing[target];
        freeing[target] = 0;
        draining[target] = false;
        LongQuadQueue q = stalled[target];
        retrying = true;
        while (!q.isEmpty()) {
            int kind = (int) (q.head(0) >>> 32);
            int source = (int) q.head(0);
            long x = q.head(1);
            long y = q.head(2);
            int n = (int) q.head(3);
            if (!reserve(target, kind == HELD_READ ? n * 8 : 0)) {
                break;
            }
            q.remove();
            if (kind == HELD_READ) {
                logRead(source, target, x, n, y);
                rma.replyAfter(aa.logAccessPs(), source, target, x, n, y);
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
}
