package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.RawConnection;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.FaultPhases;
import org.pagefabric.reg.OnDemandPaging;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * ODP inter-operability (001 "Initial Testing"): the latency of a probe, rank 0 writing
 * {@code size_B} bytes to rank 1 one at a time, with its memory under the policy (a pinned,
 * non-ODP application, or ODP with resident pages), while a second process pair on the same two
 * NICs keeps faulting: each of its iterations gives its ODP buffers back with madvise(DONTNEED)
 * (MMU notifiers zap the NIC translations), refills the source and RDMA-writes it into the peer's
 * buffer, so the write takes a requester fault at the source; with {@code background_responder}
 * the peer's buffer is given back too and the write also takes a responder fault (RNR, retry).
 * The probe pauses {@code gap_us} between writes, so its timed part overlaps many faults. The pair runs until the probe is done; its transfers
 * are checked like the probe's. {@code background_faults=false} leaves the pair idle.
 *
 * <p>The peer's madvise is issued by the background process itself (out of band, as the peer
 * process would do it between iterations) and its kernel and invalidation time is spent there.
 * The pair is an ODP application whatever the probe's policy: its buffers are registered through
 * the on-demand paging of {@value #BACKGROUND_POLICY}, taken from the policy registry, which shares
 * each node's driver with a probe under ODP. The {@code faults} column counts the faults those
 * drivers resolved while the probe was timed.
 */
public final class InteropLatencyWorkload extends AbstractWorkload {
    /** Column of the background switch. */
    public static final String BACKGROUND = "background_faults";
    /** Column of the background transfer size. */
    public static final String BACKGROUND_SIZE = "background_size_B";
    /** Column of the switch that also gives the background destination back (responder faults). */
    public static final String BACKGROUND_RESPONDER = "background_responder";
    /** Column of the probe's pause between iterations. */
    public static final String GAP = "gap_us";
    /** Column of background transfers completed while the probe ran. */
    public static final String BACKGROUND_OPS = "background_ops";
    /** The registration policy whose on-demand paging registers the background pair's buffers. */
    public static final String BACKGROUND_POLICY = "odp-explicit";
    private static final int WARMUP = 5;
    private static final long TAG = 0xB6F0000L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(8),
            StandardParameters.iterations(),
            WorkloadParameter.flag(BACKGROUND, false, "a second process pair keeps faulting on ODP memory meanwhile"),
            WorkloadParameter.integer(BACKGROUND_SIZE, 64 * 1024, "B",
                    "bytes of each background RDMA write (its source is given back before each)", 1, 1L << 30),
            WorkloadParameter.flag(BACKGROUND_RESPONDER, false,
                    "the background destination is given back too: each write also takes a responder fault (RNR)"),
            // 10 us: a hundred probes then span about a millisecond, tens of background faults
            WorkloadParameter.integer(GAP, 10, "us", "pause of the probe between two writes", 0, 1_000_000));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(FaultTally.FAULTS, BACKGROUND_OPS));
    }

    /** The workload with its declared metadata. */
    public InteropLatencyWorkload() {
        super(WorkloadDescriptor.of("interop-latency", "RDMA write latency of a probe while another process pair on"
                + " the same NICs keeps taking ODP page faults").parameters(PARAMETERS).lowerIsBetter("latency_us")
                .metrics(METRICS)
                // its transfers are one-sided puts
                .requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        WritePair w = WritePair.filled(job, params, TAG);
        boolean[] ok = {true};
        boolean[] probeDone = {false};
        FaultTally[] tally = new FaultTally[2];
        Background bg = params.flag(BACKGROUND)
                ? new Background(job, params.longValue(BACKGROUND_SIZE), params.flag(BACKGROUND_RESPONDER),
                        probeDone) : null;
        List<FaultPhases> drivers = bg == null ? FaultTally.driversOf(job) : List.of(bg.a.paging, bg.b.paging);
        long gap = params.longValue(GAP) * org.pagefabric.sim.Time.US;
        new SimProcess(job.simulator(), w.src().node(), "rank0", ctx -> {
            if (bg != null) {
                ctx.await(bg.warm); // the pair's first write maps its destination: from then on it faults steadily
            }
            for (int i = 0; i < WARMUP + w.iterations(); i++) {
                if (i == WARMUP) {
                    tally[0] = FaultTally.now(drivers);
                }
                long t0 = ctx.now();
                w.src().write(ctx, w.dst(), 0, 0, w.size(), i);
                ok[0] &= w.src().awaitSend(ctx).ok();
                if (i >= WARMUP) {
                    latencies.record(ctx.now() - t0);
                }
                ctx.sleep(gap);
            }
            tally[1] = FaultTally.now(drivers);
            probeDone[0] = true;
        }).start();
        return Run.of(() -> ok[0] && w.arrived() && (bg == null || bg.ok), () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            Map<String, Object> faults = new LinkedHashMap<>();
            FaultTally.put(tally[0], tally[1], faults);
            m.put(FaultTally.FAULTS, faults.get(FaultTally.FAULTS));
            m.put(BACKGROUND_OPS, bg == null ? 0L : bg.ops);
            return m;
        });
    }

    /** The faulting process pair: one process on each node, an ODP buffer each, one RC QP pair. */
    private static final class Background {
        final long size;
        final Side a;
        final Side b;
        final org.pagefabric.sim.process.Completion warm = new org.pagefabric.sim.process.Completion("interop.warm");
        boolean ok = true;
        long ops;

        Background(Job job, long size, boolean responder, boolean[] stop) {
            this.size = size;
            long length = Math.ceilDiv(size, Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
            RegistrationPolicy odp = PolicyRegistry.standard().create(BACKGROUND_POLICY, job.cluster().profile());
            a = new Side(odp, job.rank(0).node(), length, "bg0");
            b = new Side(odp, job.rank(1).node(), length, "bg1");
            RawConnection.connect(a.connection, b.connection, job.cluster());
            new SimProcess(job.simulator(), a.node, "bg0", ctx -> {
                for (long n = 0; !stop[0]; n++) {
                    ctx.sleep(a.giveBack() + (responder ? b.giveBack() : 0) + a.memory.writeTag(a.buffer, size, TAG ^ n, 0));
                    a.connection.write(n, a.buffer, size, b.connection, b.buffer);
                    ok &= a.connection.await(ctx).ok()
                            && a.memory.sameBytes(a.buffer, b.memory, b.buffer, size);
                    ops++;
                    if (!warm.isDone()) {
                        warm.complete();
                    }
                }
            }).start();
        }
    }

    /** One node's background process and its ODP buffer. */
    private static final class Side {
        final Node node;
        final ProcessMemory memory;
        final RawConnection connection;
        final OnDemandPaging paging;
        final long buffer;
        final long length;

        Side(RegistrationPolicy odp, Node node, long length, String label) {
            this.node = node;
            this.length = length;
            memory = ProcessMemory.start(node, 0, false);
            buffer = memory.mmap(0, length, Prot.READ_WRITE, MapFlags.POPULATE).address();
            connection = new RawConnection(node, label, 1024);
            paging = odp.onDemandPaging(node);
            if (paging == null) {
                throw new IllegalStateException("policy " + odp.name() + " offers no on-demand paging");
            }
            connection.registerOnDemand(paging, memory.space(), buffer, length);
        }

        /** madvise(DONTNEED) of the buffer: kernel time plus the driver's invalidation time. */
        long giveBack() {
            long before = paging.invalidationPs();
            long k = memory.madvise(buffer, length, Advice.DONTNEED);
            return k + paging.invalidationPs() - before;
        }
    }
}
