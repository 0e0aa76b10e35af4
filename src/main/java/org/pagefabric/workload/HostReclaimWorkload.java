package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * RDMA writes into a virtual machine whose host reclaims its memory ({@code vm.nested}): rank 0
 * puts {@code size_B} bytes to random pages of rank 1's registered segment of {@code hot_MiB},
 * while rank 1's hypervisor, every {@code host_reclaim_interval_us}, tries to take
 * {@code host_reclaim_pages} of the segment's guest frames at random (host swap, a balloon). The
 * guest is not told; the NIC's translations of a taken frame are zapped by the host's notifier,
 * and the next put to it faults beneath the guest (a host fault under the guest's page-in). A
 * frame the guest pinned is pinned in the host too, and the host's attempt is refused.
 *
 * <p>What the rows show: how many frames the host took and how many it was refused because a
 * registration pins them ({@code host_reclaimed_pages}, {@code host_refused_pinned}), the guest
 * frames pinned in the host at the end ({@code host_pinned_pages}), and the host faults per put that taking them
 * costs. On bare metal ({@code vm.nested=false}) there is no hypervisor and nothing is taken.
 * Before timing, rank 0 writes every page once, so the segment starts resident and mapped. Every
 * put is checked: its destination holds its source's content tag.
 */
public final class HostReclaimWorkload extends AbstractWorkload {
    private static final long MIB = 1L << 20;
    private static final long TAG = 0x7A11_0000_0000L;
    private static final String HOT = "hot_MiB";
    private static final String INTERVAL = "host_reclaim_interval_us";
    private static final String PAGES = "host_reclaim_pages";
    private static final List<String> EXTRA = List.of("host_reclaimed_pages", "host_refused_pinned", "host_pinned_pages",
            "host_faults_per_put");
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(4096),
            StandardParameters.iterations(),
            WorkloadParameter.integer(HOT, 1, "MiB", "rank 1's registered memory the puts land in, uniformly at random",
                    1, 1L << 12),
            WorkloadParameter.integer(INTERVAL, 20, "us", "every this often rank 1's host tries to take guest frames",
                    1, 1_000_000_000),
            WorkloadParameter.integer(PAGES, 8, "pages", "guest frames of the segment the host tries to take each time",
                    0, 1L << 20));

    /** The workload with its declared metadata. */
    public HostReclaimWorkload() {
        super(WorkloadDescriptor.of("host-reclaim", "RDMA writes into a virtual machine whose host reclaims guest"
                + " frames under the registration: host notifier invalidations, host faults, refused pinned frames")
                .parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(PointRun.metricsAfterVerified(EXTRA))
                .segment(p -> p.longValue(HOT) * MIB).requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int puts = StandardParameters.iterations(params);
        long hot = params.longValue(HOT) * MIB;
        long intervalPs = params.longValue(INTERVAL) * Time.US;
        int perInterval = (int) Math.min(Integer.MAX_VALUE, params.longValue(PAGES));
        if (size > hot) {
            throw new IllegalArgumentException("size_B " + size + " does not fit in hot_MiB (" + hot + " B)");
        }
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        HostStage host = dst.node().hostStage();
        RandomStream targets = job.simulator().randomStream("workload.host-reclaim.targets");
        RandomStream victims = job.simulator().randomStream("workload.host-reclaim.victims");
        long hotPages = hot / Kernel.PAGE_SIZE;
        long[] base = new long[3];
        boolean[] ok = {true};
        boolean[] done = {false};
        new SimProcess(job.simulator(), src.node(), "rank0", ctx -> {
            RandomPagePuts pattern = new RandomPagePuts(src, dst, size, hot, TAG);
            ok[0] = pattern.warm(ctx);
            if (host != null) {
                base[0] = host.reclaimed();
                base[1] = host.refusedPinned();
                base[2] = host.hostFaults();
            }
            ok[0] &= pattern.timed(ctx, puts, targets, latencies);
            done[0] = true;
        }).start();
        if (host != null && perInterval > 0) {
            new SimProcess(job.simulator(), dst.node(), "hypervisor", ctx -> {
                while (!done[0]) {
                    ctx.sleep(intervalPs);
                    for (int i = 0; i < perInterval; i++) {
                        long pa = dst.process().physicalAddress(dst.segment() + victims.nextLong(hotPages) * Kernel.PAGE_SIZE);
                        if (pa >= 0) {
                            host.reclaim(pa >>> 12);
                        }
                    }
                }
            }).start();
        }
        return Run.of(() -> ok[0], () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host_reclaimed_pages", host == null ? 0 : host.reclaimed() - base[0]);
            m.put("host_refused_pinned", host == null ? 0 : host.refusedPinned() - base[1]);
            m.put("host_pinned_pages", host == null ? 0 : host.pinnedFrames());
            m.put("host_faults_per_put", host == null ? 0.0
                    : Math.round((host.hostFaults() - base[2]) * 1000.0 / puts) / 1000.0);
            return m;
        });
    }
}
