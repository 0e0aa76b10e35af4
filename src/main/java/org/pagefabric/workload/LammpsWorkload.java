package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.hw.nic.CompletionStatus;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A LAMMPS-like molecular-dynamics loop (000 §V, Table II): {@code processes} ranks on a
 * periodic ring, each step computing its forces ({@code compute_us_per_step} of one thread's
 * work, shared by {@code threads_per_process} threads) and then exchanging a halo of
 * {@code size_B} bytes with both neighbours by send/receive. The halo buffers are allocated once
 * and reused every step (LAMMPS reuses its communication buffers); the receive buffers start
 * never touched (not present), so only the first exchange can meet a page fault. Every received
 * halo is checked against the content its neighbour sent in that step.
 *
 * <p>{@code iterations} is the number of timesteps per process: the run has
 * {@code iterations * processes} timesteps (weak scaling, as 000's Table II reads: 100 steps per
 * process); {@code loop_time_s} is the simulated time of the loop and
 * {@code timesteps_per_s} the timesteps over it.
 */
public final class LammpsWorkload extends AbstractWorkload {
    private static final int LEFT = 0;
    private static final int RIGHT = 1;
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(8192),
            StandardParameters.iterations(),
            WorkloadParameter.integer("processes", 2, "", "MPI processes, one per node, on a periodic ring", 1, 64),
            WorkloadParameter.integer("threads_per_process", 4, "", "threads sharing each step's force computation",
                    1, 1024),
            WorkloadParameter.integer("compute_us_per_step", 20_000, "us", "one timestep's force computation on one"
                    + " thread of one process (assumed size of the simulated system)", 0, 1_000_000_000));

    /** The workload with its declared metadata. */
    public LammpsWorkload() {
        super("lammps", "LAMMPS-like halo exchange on a ring of processes with per-step compute and reused buffers:"
                + " loop time", 2, PARAMETERS, "loop_time_s", false);
    }

    @Override
    public int ranks(Map<String, Object> params) {
        // The network needs two nodes; one process leaves the second idle.
        return Math.max(2, processes(params));
    }

    @Override
    public long segmentBytes(Map<String, Object> params) {
        return 3 * area(params);
    }

    @Override
    public List<String> metrics() {
        List<String> all = new ArrayList<>(PointRun.METRICS);
        all.addAll(all.indexOf("verified") + 1, List.of("loop_time_s", "timesteps_per_s"));
        return all;
    }

    private static int processes(Map<String, Object> params) {
        return Math.toIntExact((Long) params.get("processes"));
    }

    /** Bytes of one halo area, whole pages. */
    private static long area(Map<String, Object> params) {
        long halo = StandardParameters.size(params);
        return Math.ceilDiv(halo, Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
    }

    @Override
    public Run start(Job job, Map<String, Object> params, LatencyHistogram latencies) {
        int p = processes(params);
        long steps = (long) StandardParameters.iterations(params) * p;
        long computePs = (Long) params.get("compute_us_per_step") * Time.US / (Long) params.get("threads_per_process");
        long halo = StandardParameters.size(params);
        long area = area(params);
        boolean[] ok = {true};
        long[] loop = new long[2];
        loop[0] = Long.MAX_VALUE;
        for (int r = 0; r < p && p > 1; r++) {
            // Fresh receive buffers: mapped, never touched.
            Rank rank = job.rank(r);
            Kernel k = rank.node().kernel();
            for (long va = rank.segment() + area; va < rank.segment() + 3 * area; va += Kernel.PAGE_SIZE) {
                if (!k.heldResident(rank.process(), va)) {
                    k.madvise(rank.process(), va, Kernel.PAGE_SIZE, Advice.DONTNEED);
                }
            }
        }
        for (int r = 0; r < p; r++) {
            Rank me = job.rank(r);
            Rank left = job.rank((r + p - 1) % p);
            Rank right = job.rank((r + 1) % p);
            int id = r;
            new SimProcess(job.simulator(), me.node(), "rank" + r, ctx -> {
                long t0 = ctx.now();
                loop[0] = Math.min(loop[0], t0);
                if (p > 1) {
                    me.receive(ctx, left, area, halo, recvId(0, LEFT));
                    me.receive(ctx, right, 2 * area, halo, recvId(0, RIGHT));
                }
                for (long s = 0; s < steps; s++) {
                    long stepStart = ctx.now();
                    ctx.sleep(computePs);
                    if (p == 1) {
                        latencies.record(ctx.now() - stepStart);
                        continue;
                    }
                    DataCheck.fill(me, 0, halo, tag(s, id));
                    me.send(ctx, right, 0, halo, s * 2 + RIGHT);
                    me.send(ctx, left, 0, halo, s * 2 + LEFT);
                    for (int n = 0; n < 2; n++) {
                        WorkCompletion wc = me.awaitReceive(ctx);
                        int side = (int) (wc.wrId() & 1);
                        long at = me.segment() + (side == LEFT ? area : 2 * area);
                        int from = side == LEFT ? left.id() : right.id();
                        ok[0] &= wc.status() == CompletionStatus.SUCCESS
                                && me.node().kernel().verifyTag(me.process(), at, halo, tag(s, from), 0);
                        if (s + 1 < steps) {
                            me.receive(ctx, side == LEFT ? left : right, side == LEFT ? area : 2 * area, halo,
                                    recvId(s + 1, side));
                        }
                    }
                    for (int n = 0; n < 2; n++) {
                        ok[0] &= me.awaitSend(ctx).status() == CompletionStatus.SUCCESS;
                    }
                    if (id == 0) {
                        latencies.record(ctx.now() - stepStart);
                    }
                }
                loop[1] = Math.max(loop[1], ctx.now());
            }).start();
        }
        return Run.of(() -> ok[0], () -> {
            double seconds = (loop[1] - loop[0]) / (double) Time.S;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("loop_time_s", Math.round(seconds * 1e6) / 1e6);
            m.put("timesteps_per_s", seconds <= 0 ? null : Math.round(steps / seconds * 1000.0) / 1000.0);
            return m;
        });
    }

    private static long recvId(long step, int side) {
        return step * 2 + side;
    }

    /** The content stream of the halo {@code rank} sends in {@code step}. */
    private static long tag(long step, int rank) {
        return 0x1A3300000000L + step * 1024 + rank;
    }
}
