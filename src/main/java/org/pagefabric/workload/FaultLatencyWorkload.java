package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.FaultTrace;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * PART's microbenchmark (000 §V, Figs. 7-11): rank 0 RDMA-writes {@code size_B} bytes to rank 1,
 * one write at a time, and the latency is the time from asking for the write (the policy's
 * preparation included) to its completion. Before each write, outside the timed part, each
 * destination page is made non-present with probability {@code fault_fraction} (and each source
 * page with {@code source_fault_fraction}), drawn independently per page from a seeded stream;
 * pages the kernel holds resident (pinned or mlocked) are left alone, and a method of Table I
 * that expects resident pages (Transfer-Only, Touch-Pres) meets none made non-present. Every
 * write is checked end to end (the destination's digest against the source's).
 *
 * <p>{@code latency_overhead_us} is the time the policy spent before posting each timed write
 * (touching, mlocking: what a Table I method adds to Transfer-Only) and
 * {@code touch_overhead_per_page_us} that time per page of the buffer.
 *
 * <p>Under a policy that traces its fault handling (PART's) the rows also break the latency down
 * as 000 Fig. 8 measures it, averaged over the timed writes that took a destination fault: from
 * asking until the first fault, the SMMU interrupt handler's own run, the tasklet run, the ERR
 * from its issue in user space to the initiator, and from there to completion
 * ({@link FaultTrace}). {@code breakdown_us} is their sum; what the write's
 * latency holds besides ({@code outside_breakdown_us}: interrupt delivery and entry, softirq
 * dispatch, the Netlink wake-up and its context switches) is what Fig. 8 leaves out.
 */
public final class FaultLatencyWorkload extends AbstractWorkload {
    /** Writes before the timed ones (cold IOTLB and caches). */
    private static final int WARMUP = 1;
    private static final List<String> EXTRA = List.of("phase_issue_us", "phase_smmu_irq_us", "phase_tasklet_us",
            "phase_err_us", "phase_retransmit_us", "breakdown_us", "outside_breakdown_us", "fault_pages", "pages_paged_in", "errs", "latency_overhead_us",
            "touch_overhead_per_page_us");
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(4096),
            StandardParameters.iterations(),
            WorkloadParameter.decimal("fault_fraction", 0, "", "probability that each destination page is not present"
                    + " before a write, drawn per page (000 Fig. 11's page-fault frequency)", 0, 1),
            WorkloadParameter.decimal("source_fault_fraction", 0, "", "probability that each source page is not"
                    + " present before a write (a source-side fault; its content is then zero)", 0, 1));

    /** The workload with its declared metadata. */
    public FaultLatencyWorkload() {
        super(WorkloadDescriptor.of("fault-latency", "RDMA write from rank 0 to rank 1 after making a fraction of the"
                + " pages non-present: latency from asking to completion, with PART's fault-handling phases")
                .parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(PointRun.metricsAfterVerified(EXTRA))
                // one-sided puts, into (and from) pages made non-present unless both fractions are zero
                .requires(p -> p.doubleValue("fault_fraction") > 0 || p.doubleValue("source_fault_fraction") > 0
                        ? Set.of(Capability.PUT, Capability.PAGED_OUT_MEMORY) : Set.of(Capability.PUT)).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        double dstFraction = params.doubleValue("fault_fraction");
        double srcFraction = params.doubleValue("source_fault_fraction");
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        RegistrationPolicy policy = job.policy();
        boolean resident = policy.expectsResidentPages();
        FaultTrace driver = dst.faultTrace();
        RandomStream random = job.simulator().randomStream("workload.fault-latency.pages");
        Phases phases = new Phases();
        long[] driverBase = new long[3];
        long[] prepared = new long[2];
        long[] errsBefore = new long[1];
        boolean[] ok = {true};
        new SimProcess(job.simulator(), src.node(), "rank0", ctx -> {
            for (int i = 0; i < WARMUP + iterations; i++) {
                boolean timed = i >= WARMUP;
                if (i == WARMUP) {
                    prepared[0] = src.policyTimePs();
                }
                if (i == WARMUP && driver != null) {
                    driverBase[0] = driver.faultPages();
                    driverBase[1] = driver.pagesPagedIn();
                    driverBase[2] = driver.errs();
                }
                long tag = 0xFA170000L + i;
                DataCheck.fill(src, 0, size, tag);
                dropPages(dst, size, resident ? 0 : dstFraction, random);
                dropPages(src, size, srcFraction, random);
                if (driver != null) {
                    driver.restart();
                    errsBefore[0] = driver.errs();
                }
                long t0 = ctx.now();
                src.write(ctx, dst, 0, 0, size, i);
                CompletionEntry wc = src.awaitSend(ctx);
                long t1 = ctx.now();
                // Without source faults the source holds the tag stream just written, which the
                // destination is checked against run by run; a dropped source page reads as zeros, so then
                // the two buffers are compared byte for byte.
                boolean arrived = srcFraction == 0
                        ? dst.memory().verifyTag(dst.segment(), size, tag, 0)
                        : DataCheck.same(src, 0, dst, 0, size);
                ok[0] &= wc.status() == Outcome.SUCCESS && arrived;
                if (timed) {
                    latencies.record(t1 - t0);
                    prepared[1] = src.policyTimePs();
                    if (driver != null) {
                        // With one ERR in the write, its phase ends where it reaches the initiator.
                        long errArrived = driver.errs() - errsBefore[0] == 1
                                ? src.lastRetransmissionRequestPs(dst) : -1;
                        phases.add(driver, t0, t1, errArrived);
                    }
                }
            }
        }).start();
        return Run.of(() -> ok[0], () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            phases.put(m);
            m.put("fault_pages", driver == null ? null : per(driver.faultPages() - driverBase[0], iterations));
            m.put("pages_paged_in", driver == null ? null : per(driver.pagesPagedIn() - driverBase[1], iterations));
            m.put("errs", driver == null ? null : per(driver.errs() - driverBase[2], iterations));
            double overheadUs = Time.toMicros(prepared[1] - prepared[0]) / iterations;
            m.put("latency_overhead_us", Math.round(overheadUs * 1000.0) / 1000.0);
            long pages = Math.ceilDiv(size, Kernel.PAGE_SIZE);
            m.put("touch_overhead_per_page_us", Math.round(overheadUs / pages * 1000.0) / 1000.0);
            return m;
        });
    }

    /**
     * Makes each page of the rank's first {@code size} bytes non-present with probability
     * {@code fraction} (MADV_DONTNEED), except pages the kernel holds resident. One draw per
     * page whatever the outcome, so the stream stays aligned across policies.
     */
    private static void dropPages(Rank r, long size, double fraction, RandomStream random) {
        if (fraction <= 0) {
            return;
        }
        ProcessMemory mem = r.memory();
        long end = r.segment() + size;
        for (long va = r.segment(); va < end; va += Kernel.PAGE_SIZE) {
            boolean drop = random.nextDouble() < fraction;
            if (drop && !mem.heldResident(va)) {
                mem.madvise(va, Kernel.PAGE_SIZE, Advice.DONTNEED);
            }
        }
    }

    private static double per(long count, int iterations) {
        return Math.round(1000.0 * count / iterations) / 1000.0;
    }

    /** Sums of Fig. 8's phases over the timed writes that took a destination fault. */
    private static final class Phases {
        private long n;
        private long issue;
        private long irq;
        private long tasklet;
        private long err;
        private long retransmit;
        private long latency;

        /**
         * @param errArrivedPs when the write's one ERR reached the initiator, or -1: the paper's ERR
         *                     phase spans its issue "from user-space to the initiator"
         */
        void add(FaultTrace t, long t0, long t1, long errArrivedPs) {
            if (t.faultPs() == 0 || t.handlerPs() == 0 || t.taskletPs() == 0) {
                return;
            }
            n++;
            issue += t.faultPs() - t0;
            irq += t.handlerPs() - t.handlerStartPs();
            tasklet += t.taskletPs() - t.taskletStartPs();
            long resumed = t.taskletPs();
            if (t.errPs() != 0) {
                resumed = errArrivedPs >= t.errPs() ? errArrivedPs : t.errPs();
                err += resumed - t.errStartPs();
            }
            retransmit += t1 - resumed;
            latency += t1 - t0;
        }

        void put(Map<String, Object> m) {
            m.put("phase_issue_us", mean(issue));
            m.put("phase_smmu_irq_us", mean(irq));
            m.put("phase_tasklet_us", mean(tasklet));
            m.put("phase_err_us", mean(err));
            m.put("phase_retransmit_us", mean(retransmit));
            long breakdown = issue + irq + tasklet + err + retransmit;
            m.put("breakdown_us", mean(breakdown));
            m.put("outside_breakdown_us", mean(latency - breakdown));
        }

        private Double mean(long sumPs) {
            return n == 0 ? null : Math.round(1000.0 * Time.toMicros(sumPs) / n) / 1000.0;
        }
    }
}
