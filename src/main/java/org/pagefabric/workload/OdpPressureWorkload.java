package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.KernelStats;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.OnDemandPaging;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.stat.Statistic;

/**
 * On-demand paging under memory pressure (001 "Future work"): rank 0 RDMA-writes {@code size_B}
 * bytes at a time to random pages of a hot area of rank 1 ({@code hot_MiB}, rank 1's segment,
 * which only the NIC touches), while a process on rank 1's node streams through {@code cold_MiB}
 * of its own memory, writing one word per page, round after round, for as long as the puts run.
 * On a node with less memory than both (the profile's {@code memory.size}) and swap
 * ({@code os.swap.size}), reclaim runs all the time, and every page it takes from the hot area is
 * invalidated in the NIC and faulted back by the next put to it.
 *
 * <p>What the rows show: how many of the puts took an ODP fault ({@code odp_faults_per_put}),
 * how many pages reclaim took and how many notifier ranges and NIC invalidations that cost
 * ({@code notifier_ranges}, {@code odp_invalidations}, {@code odp_invalidation_us} and per page
 * invalidated), so that {@code os.unmap_batch} (invalidation batching) and
 * {@code odp.access_bits} (reclaim hearing of the NIC's use) can be compared. Before timing,
 * rank 0 writes every hot page once, in order, so the hot area starts resident and mapped. With
 * {@code migrate_interval_us}, NUMA balancing also moves the whole hot area now and then, the
 * other invalidation source 001 names: adjacent pages, so batching can cover many with one range.
 * Every put is checked: its destination holds its source's content tag.
 */
public final class OdpPressureWorkload extends AbstractWorkload {
    private static final long MIB = 1L << 20;
    private static final long TAG = 0x0D9F_0000_0000L;
    private static final String HOT = "hot_MiB";
    private static final String COLD = "cold_MiB";
    private static final String STREAM_GAP = "stream_gap_us";
    private static final String MIGRATE = "migrate_interval_us";
    private static final List<String> EXTRA = List.of("odp_faults_per_put", "reclaimed_pages", "notifier_ranges",
            "odp_invalidations", "odp_invalidated_pages", "odp_invalidation_us", "odp_invalidation_us_per_page",
            "young_reports");
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(4096),
            StandardParameters.iterations(),
            WorkloadParameter.integer(HOT, 1, "MiB", "rank 1's memory the puts land in, uniformly at random; only the"
                    + " NIC touches it", 1, 1L << 12),
            WorkloadParameter.integer(COLD, 48, "MiB", "memory a process on rank 1's node writes one word per page of,"
                    + " round after round, while the puts run", 1, 1L << 14),
            WorkloadParameter.integer(STREAM_GAP, 1, "us", "the streaming process's compute time per page it writes",
                    0, 1_000_000),
            WorkloadParameter.integer(MIGRATE, 0, "us", "every this often, NUMA balancing migrates the whole hot area to"
                    + " other frames (one migrate_pages call over the range); 0: never", 0, 1_000_000_000));

    /** The workload with its declared metadata. */
    public OdpPressureWorkload() {
        super(WorkloadDescriptor.of("odp-pressure", "RDMA writes to random pages of an ODP region while a neighbour"
                + " streams through more memory than the node has: ODP faults, reclaim and NIC invalidations per put")
                .parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(PointRun.metricsAfterVerified(EXTRA))
                .segment(p -> p.longValue(HOT) * MIB)
                // one-sided puts into memory that reclaim pages out; the driver's counters come from on-demand paging
                .requires(Capability.PUT, Capability.PAGED_OUT_MEMORY, Capability.ON_DEMAND_PAGING).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int puts = StandardParameters.iterations(params);
        long hot = params.longValue(HOT) * MIB;
        long cold = params.longValue(COLD) * MIB;
        long gapPs = params.longValue(STREAM_GAP) * Time.US;
        long migratePs = params.longValue(MIGRATE) * Time.US;
        if (size > hot) {
            throw new IllegalArgumentException("size_B " + size + " does not fit in hot_MiB (" + hot + " B)");
        }
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        ProcessMemory mem = dst.memory();
        OnDemandPaging paging = job.policy().onDemandPaging(dst.node());
        if (paging == null) {
            throw new IllegalStateException("policy " + job.policy().name() + " offers no on-demand paging");
        }
        RandomStream random = job.simulator().randomStream("workload.odp-pressure.targets");
        String node = dst.node().name();
        Counter invalidations = counter(job, node + ".odp.invalidations");
        Counter invalidated = counter(job, node + ".odp.invalidated_pages");
        Counter young = counter(job, node + ".odp.young_reports");
        KernelStats ks = mem.kernelStats();
        long[] base = new long[7];
        boolean[] ok = {true};
        boolean[] done = {false};
        ProcessMemory neighbour = ProcessMemory.start(dst.node(), 0, false);
        long coldVa = neighbour.mmap(0, cold, Prot.READ_WRITE, MapFlags.NONE).address();
        byte[] word = new byte[8];
        new SimProcess(job.simulator(), src.node(), "rank0", ctx -> {
            RandomPagePuts pattern = new RandomPagePuts(src, dst, size, hot, TAG);
            ok[0] = pattern.warm(ctx);
            base[0] = paging.resolvedFaults();
            base[1] = ks.reclaimed();
            base[2] = ks.invalidations();
            base[3] = invalidations.value();
            base[4] = invalidated.value();
            base[5] = paging.invalidationPs();
            base[6] = young.value();
            ok[0] &= pattern.timed(ctx, puts, random, latencies);
            done[0] = true;
        }).start();
        new SimProcess(job.simulator(), dst.node(), "neighbour", ctx -> {
            long page = 0;
            long pages = cold / Kernel.PAGE_SIZE;
            while (!done[0]) {
                long cost = neighbour.write(coldVa + page * Kernel.PAGE_SIZE, word, 0, word.length);
                ctx.sleep(cost + gapPs);
                page = page + 1 == pages ? 0 : page + 1;
            }
        }).start();
        if (migratePs > 0) {
            int hotPages = (int) (hot / Kernel.PAGE_SIZE);
            new SimProcess(job.simulator(), dst.node(), "numa-balancing", ctx -> {
                while (!done[0]) {
                    ctx.sleep(migratePs);
                    long before = paging.invalidationPs();
                    long cost = mem.migrateRange(dst.segment(), hotPages).costPs();
                    // the mapping change waits for the NIC's invalidations, as munmap does
                    ctx.sleep(cost + paging.invalidationPs() - before);
                }
            }).start();
        }
        return Run.of(() -> ok[0], () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("odp_faults_per_put", round((paging.resolvedFaults() - base[0]) / (double) puts));
            m.put("reclaimed_pages", ks.reclaimed() - base[1]);
            m.put("notifier_ranges", ks.invalidations() - base[2]);
            m.put("odp_invalidations", invalidations.value() - base[3]);
            long zapped = invalidated.value() - base[4];
            m.put("odp_invalidated_pages", zapped);
            double us = Time.toMicros(paging.invalidationPs() - base[5]);
            m.put("odp_invalidation_us", round(us));
            m.put("odp_invalidation_us_per_page", zapped == 0 ? null : round(us / zapped));
            m.put("young_reports", young.value() - base[6]);
            return m;
        });
    }

    private static Counter counter(Job job, String name) {
        Statistic s = job.simulator().statistics().get(name);
        if (!(s instanceof Counter c)) {
            throw new IllegalStateException("no counter " + name + ": the policy's driver is not attached to the node");
        }
        return c;
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }
}
