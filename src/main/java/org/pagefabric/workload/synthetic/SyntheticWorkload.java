package org.pagefabric.workload.synthetic;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadDescriptor;

/**
 * An application described by its traits instead of its code: buffer sizes and how they spread,
 * how buffers are reused, how often they are freed and reallocated and by which allocator, the
 * mix of puts, gets and sends, whom they address and how long the ranks compute in between. It
 * answers "which registration policy for my runtime" for an application that exists only as a
 * description.
 *
 * <p>Each rank mallocs its buffers outside the communication segment. An operation may first
 * free its buffer and malloc a new one (a buffer at or above the mmap threshold is unmapped and
 * usually comes back at the same address with new frames), then writes fresh content into it
 * (or, for a get, content the transfer must overwrite), moves it, and checks the bytes at the
 * destination. A registration that outlived the free names the old frames: the transfer
 * succeeds on the wire, the check fails, the row says {@code verified=false} with the operations
 * in {@code corrupted}.
 *
 * <p>Puts land, and gets are served, in per-source zones of the peer's segment; sends land in
 * four per-source receive slots there, reposted as each is consumed.
 */
public final class SyntheticWorkload extends AbstractWorkload {
    /** Column: operations whose bytes did not arrive intact. */
    public static final String CORRUPTED = "corrupted";
    /** Column: operations that completed with an error. */
    public static final String FAILED = "failed";
    /** Column: frees followed by a malloc in the timed part. */
    public static final String REALLOCATIONS = "reallocations";
    /** Column: the most memory the policy held pinned at any operation's end. */
    public static final String PINNED_PEAK = "pinned_peak_MiB";
    /** Column: share of the ranks' time spent in the registration policy. */
    public static final String POLICY_SHARE = "policy_time_pct";

    private static final int RECEIVE_SLOTS = 4;
    private static final long CONTENT = 0x5E_0000_0000_0000L;
    private static final long POISON = 0xBAD0_0000_0000_0000L;
    private static final long SERVED = 0x6E7_0000_0000_0000L;
    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(CORRUPTED, FAILED, REALLOCATIONS, PINNED_PEAK, POLICY_SHARE));
    }

    /** The workload with its declared parameters. */
    public SyntheticWorkload() {
        super(WorkloadDescriptor.of("synthetic", "an application described by its parameters: buffer sizes, reuse,"
                + " allocation churn and allocator, operation mix, peers, compute; every transfer verified")
                .ranks(p -> p.intValue(SyntheticParameters.RANKS)).parameters(SyntheticParameters.ALL)
                // the declared checks, then those across parameters
                .check(Application::of).lowerIsBetter("latency_us").metrics(METRICS)
                // per rank and peer: a put zone, a zone gets read, and the receive slots
                .segment(p -> {
                    Application app = Application.of(p);
                    return zone(app) * app.ranks() * (2 + RECEIVE_SLOTS);
                })
                .requires(SyntheticWorkload::requires).build());
    }

    private static Set<Capability> requires(Params params) {
        Application app = Application.of(params);
        Set<Capability> needs = EnumSet.noneOf(Capability.class);
        if (app.put() > 0) {
            needs.add(Capability.PUT);
        }
        if (app.get() > 0) {
            needs.add(Capability.GET);
        }
        if (app.send() > 0) {
            needs.add(Capability.SEND_RECEIVE);
        }
        if (app.churns()) {
            needs.add(Capability.PAGED_OUT_MEMORY);
        }
        return needs;
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        Application app = Application.of(params);
        int n = app.ranks();
        long zone = zone(app);
        Tally tally = new Tally(job);
        Buffers[] buffers = new Buffers[n];
        long[] opsSeed = new long[n];
        Inbox[][] inbox = new Inbox[n][n];
        int[][] expected = new int[n][n];
        long initiators = 0;
        for (int r = 0; r < n; r++) {
            buffers[r] = new Buffers(job.rank(r), app, job.simulator().randomStream("synthetic.rank" + r + ".sizes"));
            opsSeed[r] = job.simulator().randomStream("synthetic.rank" + r + ".ops").seed();
            if (app.peers().initiates(r)) {
                initiators++;
                // a dry run of the draws: how many sends each receiver gets from this rank
                OperationDraw dry = new OperationDraw(app, r, buffers[r].count(), opsSeed[r]);
                for (int i = 0; i < app.operations(); i++) {
                    dry.next(i);
                    if (dry.kind == OperationDraw.SEND) {
                        expected[dry.peer][r]++;
                    }
                }
            }
        }
        for (int t = 0; t < n; t++) {
            Rank rank = job.rank(t);
            ProcessMemory mem = rank.memory();
            mem.writeTag(rank.segment() + n * zone, n * zone, SERVED + t, 0);
            for (int s = 0; s < n; s++) {
                inbox[t][s] = new Inbox(expected[t][s]);
            }
        }
        for (int r = 0; r < n; r++) {
            Rank rank = job.rank(r);
            if (app.peers().initiates(r)) {
                OperationDraw draw = new OperationDraw(app, r, buffers[r].count(), opsSeed[r]);
                Buffers mine = buffers[r];
                new SimProcess(job.simulator(), rank.node(), "rank" + r,
                        ctx -> operate(ctx, job, app, rank, mine, draw, inbox, zone, tally, latencies)).start();
            }
            Inbox[] mail = inbox[r];
            if (total(mail) > 0) {
                new SimProcess(job.simulator(), rank.node(), "rank" + r + "-receiver",
                        ctx -> receive(ctx, job, rank, mail, zone, tally)).start();
            }
        }
        long operations = initiators * app.operations();
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return tally.bytesPerSecond();
            }

            @Override
            public boolean verified() {
                return tally.verified(operations);
            }

            @Override
            public String failure() {
                return tally.failure(operations);
            }

            @Override
            public Map<String, Object> extraMetrics() {
                return tally.metrics();
            }
        };
    }

    /** One initiating rank's operations, each timed from post to completion and checked. */
    private static void operate(ProcessContext ctx, Job job, Application app, Rank me, Buffers buffers,
                                OperationDraw draw, Inbox[][] inbox, long zone, Tally tally,
                                LatencyHistogram latencies) {
        ProcessMemory mem = me.memory();
        int n = app.ranks();
        buffers.allocateAll(ctx);
        long start = ctx.now();
        tally.firstStart = Math.min(tally.firstStart, start);
        for (int i = 0; i < app.operations(); i++) {
            draw.next(i);
            if (draw.churn) {
                buffers.reallocate(ctx, draw.buffer);
                tally.reallocations++;
            }
            long length = app.messageBytes(buffers.size(draw.buffer));
            long va = buffers.address(draw.buffer) + buffers.offset(draw.buffer, length);
            long local = va - me.segment();
            Rank peer = job.rank(draw.peer);
            long content = CONTENT + ((long) me.id() << 40) + i;
            long t0;
            boolean intact;
            CompletionEntry wc;
            switch (draw.kind) {
                case OperationDraw.PUT -> {
                    ctx.sleep(mem.writeTag(va, length, content, 0));
                    t0 = ctx.now();
                    me.write(ctx, peer, local, putZone(me, zone), length, i);
                    wc = me.awaitSend(ctx);
                    intact = peer.memory().verifyTag(peer.segment() + putZone(me, zone), length,
                            content, 0);
                }
                case OperationDraw.GET -> {
                    // what the read must overwrite, so that a read into stale frames cannot pass
                    ctx.sleep(mem.writeTag(va, length, POISON + content, 0));
                    t0 = ctx.now();
                    me.read(ctx, peer, n * zone + me.id() * zone, local, length, i);
                    wc = me.awaitSend(ctx);
                    intact = mem.verifyTag(va, length, SERVED + peer.id(), me.id() * zone);
                }
                default -> {
                    ctx.sleep(mem.writeTag(va, length, content, 0));
                    inbox[peer.id()][me.id()].sending(content, length);
                    t0 = ctx.now();
                    me.send(ctx, peer, local, length, i);
                    wc = me.awaitSend(ctx);
                    intact = true; // the receiver checks the bytes
                }
            }
            latencies.record(ctx.now() - t0);
            tally.operations++;
            tally.bytes += length;
            if (wc.status() != Outcome.SUCCESS) {
                tally.failed.completed(wc.status());
            } else if (!intact) {
                tally.corrupted++;
            }
            tally.lastEnd = Math.max(tally.lastEnd, ctx.now());
            tally.samplePinned();
            if (app.computePs() > 0) {
                ctx.sleep(app.computePs());
            }
        }
    }

    /** A rank's receives: {@link #RECEIVE_SLOTS} posted per sender, each checked and reposted as it is consumed. */
    private static void receive(ProcessContext ctx, Job job, Rank me, Inbox[] from, long zone, Tally tally) {
        int n = from.length;
        int[] posted = new int[n];
        for (int s = 0; s < n; s++) {
            for (int j = 0; j < Math.min(RECEIVE_SLOTS, from[s].messages()); j++) {
                me.receive(ctx, job.rank(s), slot(n, zone, s, j), zone, (long) s * RECEIVE_SLOTS + j);
                posted[s]++;
            }
        }
        ProcessMemory mem = me.memory();
        for (int left = total(from); left > 0; left--) {
            CompletionEntry wc = me.awaitReceive(ctx);
            int s = (int) (wc.wrId() / RECEIVE_SLOTS);
            int j = (int) (wc.wrId() % RECEIVE_SLOTS);
            int m = from[s].nextReceived();
            if (wc.status() != Outcome.SUCCESS) {
                tally.failed.completed(wc.status());
            } else if (j != m % RECEIVE_SLOTS || wc.bytes() != from[s].length(m)
                    || !mem.verifyTag(me.segment() + slot(n, zone, s, j), from[s].length(m), from[s].tag(m), 0)) {
                tally.corrupted++;
            }
            if (posted[s] < from[s].messages()) {
                me.receive(ctx, job.rank(s), slot(n, zone, s, j), zone, wc.wrId());
                posted[s]++;
            }
        }
    }

    private static int total(Inbox[] inboxes) {
        int sum = 0;
        for (Inbox in : inboxes) {
            sum += in.messages();
        }
        return sum;
    }

    /** A zone holds the largest message, in whole pages so that zones share no page. */
    private static long zone(Application app) {
        return (app.sizeMax() + Kernel.PAGE_SIZE - 1) / Kernel.PAGE_SIZE * Kernel.PAGE_SIZE;
    }

    private static long putZone(Rank source, long zone) {
        return source.id() * zone;
    }

    private static long slot(int ranks, long zone, int source, int j) {
        return 2L * ranks * zone + ((long) source * RECEIVE_SLOTS + j) * zone;
    }
}
