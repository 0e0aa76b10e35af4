package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.FaultTrace;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Several programs sharing the memory of the same two nodes (000 §V: "programs can dynamically
 * share the available memory"). Job {@code j} is two processes, rank {@code 2j} on node 0 and rank
 * {@code 2j+1} on node 1. Each process owns a working set of {@code working_set_MiB}, of which
 * {@code buffer_MiB} is its communication segment (what the registration policy registers: pinned
 * under pin-all, left pageable under PART); the rest is a private area it maps itself, pageable
 * under every policy. Every iteration a process writes every page of its private area and reads
 * every page of its segment (its compute phase), then puts the send half of its segment into the
 * receive half of its partner's. When the jobs' memory exceeds a node's, the kernel reclaims to
 * swap: CPU accesses take major faults, and under PART the NIC's accesses take network page
 * faults that the fault tasklet resolves (swap-in included) before the block is retransmitted.
 * Under pinning the segments cannot be reclaimed: once they fill a node, a further job's pin
 * fails and the point is refused.
 */
public final class MultiJobWorkload extends AbstractWorkload {
    static final String JOBS = "jobs";
    static final String WORKING_SET = "working_set_MiB";
    static final String BUFFER = "buffer_MiB";
    private static final long MIB = 1L << 20;
    private static final long TAG = 0x5AE5_0000_0000_0000L;

    // 16 jobs at most: PART's SMMU gives each process a context bank, and part-forth has 16.
    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.integer(StandardParameters.ITERATIONS, 4, "", "iterations of compute phase and exchange", 1,
                    1 << 20),
            WorkloadParameter.integer(JOBS, 4, "", "jobs sharing the two nodes, one process of each per node", 1, 16),
            WorkloadParameter.integer(WORKING_SET, 8, "MiB", "memory each process touches every iteration,"
                    + " its communication segment included", 1, 1L << 12),
            WorkloadParameter.integer(BUFFER, 8, "MiB", "each process's communication segment (registered by the"
                    + " policy; half sent, half received each iteration), at most the working set", 1, 1L << 12));

    /** The workload with its declared metadata. */
    public MultiJobWorkload() {
        super(WorkloadDescriptor.of("multi-job", "jobs sharing two nodes' memory, each touching its working set and"
                + " exchanging its registered buffer every iteration: job time and the page faults it pays")
                .ranks(p -> 2 * p.intValue(JOBS)).nodes(p -> 2).parameters(PARAMETERS).check(p -> {
                    if (p.longValue(BUFFER) > p.longValue(WORKING_SET)) {
                        throw new IllegalArgumentException(BUFFER + " " + p.longValue(BUFFER) + " is larger than "
                                + WORKING_SET + " " + p.longValue(WORKING_SET) + "; the segment is part of the working set");
                    }
                }).lowerIsBetter("job_ms")
                // the common metrics, then job time, CPU fault time, and page faults per job
                .metrics(PointRun.metricsThen(List.of("job_ms", "cpu_fault_ms", "major_faults", "net_fault_pages")))
                .segment(p -> p.longValue(BUFFER) * MIB)
                .requires(Capability.PUT, Capability.PAGED_OUT_MEMORY).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int jobs = params.intValue(JOBS);
        long segment = params.longValue(BUFFER) * MIB;
        long privateArea = params.longValue(WORKING_SET) * MIB - segment;
        long half = segment / 2;
        int iterations = StandardParameters.iterations(params);
        Shared shared = new Shared(job, jobs);
        for (int r = 0; r < 2 * jobs; r++) {
            Rank me = job.rank(r);
            Rank partner = job.rank(r ^ 1);
            int id = r;
            DataCheck.fill(me, 0, half, TAG + r);
            new SimProcess(job.simulator(), me.node(), "job" + (r / 2) + "-rank" + (r % 2), ctx -> {
                ProcessMemory mem = me.memory();
                long area = privateArea == 0 ? 0 : mem.mmap(0, privateArea, Prot.READ_WRITE, MapFlags.NONE).address();
                for (int it = 0; it < iterations && shared.ok; it++) {
                    for (long off = 0; off < privateArea + segment && shared.ok; off += Kernel.PAGE_SIZE) {
                        boolean mine = off < privateArea;
                        Fault f = mem.touch(mine ? area + off : me.segment() + off - privateArea, mine);
                        if (!f.resolved()) {
                            shared.fail("rank " + id + " could not touch its working set: " + f.kind());
                        } else if (f.costPs() > 0) {
                            shared.cpuFaultPs[id] += f.costPs();
                            ctx.sleep(f.costPs());
                        }
                    }
                    long t0 = ctx.now();
                    me.write(ctx, partner, 0, half, half, it);
                    CompletionEntry wc = me.awaitSend(ctx);
                    latencies.record(ctx.now() - t0);
                    if (wc.status() != Outcome.SUCCESS) {
                        shared.fail("rank " + id + "'s put completed with " + wc.status());
                    }
                }
                shared.endPs[id] = ctx.now();
            }).start();
        }
        return Run.of(() -> shared.ok && shared.delivered(half), () -> shared.failure, shared::metrics);
    }

    /** What the processes of every job report, read once the simulation has ended. */
    private static final class Shared {
        private final Job job;
        private final int jobs;
        final long[] cpuFaultPs;
        final long[] endPs;
        boolean ok = true;
        String failure;

        Shared(Job job, int jobs) {
            this.job = job;
            this.jobs = jobs;
            this.cpuFaultPs = new long[2 * jobs];
            this.endPs = new long[2 * jobs];
            java.util.Arrays.fill(endPs, -1);
        }

        void fail(String why) {
            if (ok) {
                failure = why;
            }
            ok = false;
        }

        /** Whether every process finished and its receive half holds its partner's send half. */
        boolean delivered(long half) {
            for (int r = 0; r < 2 * jobs; r++) {
                Rank me = job.rank(r);
                if (endPs[r] < 0) {
                    fail("rank " + r + " did not finish");
                    return false;
                }
                if (!me.memory().verifyTag(me.segment() + half, half, TAG + (r ^ 1), 0)) {
                    fail("rank " + r + "'s receive half does not hold its partner's data");
                    return false;
                }
            }
            return true;
        }

        Map<String, Object> metrics() {
            double jobPs = 0;
            double faultPs = 0;
            for (int j = 0; j < jobs; j++) {
                jobPs += Math.max(endPs[2 * j], endPs[2 * j + 1]);
                faultPs += cpuFaultPs[2 * j] + cpuFaultPs[2 * j + 1];
            }
            long majors = 0;
            long netPages = 0;
            boolean traced = true;
            for (int n = 0; n < 2; n++) {
                Rank r = job.rank(n);
                majors += r.memory().kernelStats().majorFaults();
                FaultTrace t = r.faultTrace();
                if (t == null) {
                    traced = false;
                } else {
                    netPages += t.faultPages();
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("job_ms", round(jobPs / jobs / 1e9));
            m.put("cpu_fault_ms", round(faultPs / jobs / 1e9));
            m.put("major_faults", round((double) majors / jobs));
            m.put("net_fault_pages", traced ? round((double) netPages / jobs) : null);
            return m;
        }

        private static double round(double v) {
            return Math.round(v * 1000.0) / 1000.0;
        }
    }
}
