package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.os.FaultKind;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * fork next to registered memory, as an application that calls system() or spawns a helper
 * meets it. Rank 0 transfers its buffer to rank 1 once, so whatever the policy registers is in
 * place; then each iteration it forks, writes new content into the buffer, the child writes its
 * own copy, rank 0 writes the buffer into rank 1's, the destination is checked against rank 0's
 * view, and the child exits.
 *
 * <p>What the parent's write does depends on the kernel ({@code os.fork.pinned_pages}): before
 * Linux 5.9 a pinned page is copy-on-write like any other, so the parent's write moves the
 * parent to a new page while the registration still names the old one, which the child then
 * owns and writes: the NIC sends the child's bytes ({@code corrupted}). With {@code dontfork}
 * the registrars mark every pinned registration MADV_DONTFORK (see {@link #profile}), as
 * libibverbs' ibv_fork_init has ibv_reg_mr do:
 * the parent is safe and the child has no buffer ({@code child_faults}); {@code auto} does so
 * only on a kernel without the early copy, as runtimes do when ibv_is_fork_initialized does not
 * answer IBV_FORK_UNNEEDED. Policies that pin nothing follow the page through MMU-notifier
 * invalidations; bounce buffers copy from the parent's view at send time, but their own pinned
 * buffers (and an active-message layer's) meet the same hazard as the application's.
 */
public final class ForkReuseWorkload extends AbstractWorkload {
    /** Column of the MADV_DONTFORK switch. */
    public static final String DONTFORK = "dontfork";
    /** Column of the count of silently corrupted iterations. */
    public static final String CORRUPTED = "corrupted";
    /** Column of the count of child accesses refused (nothing mapped: SIGSEGV in a real child). */
    public static final String CHILD_FAULTS = "child_faults";
    /** Column of the mean kernel time of one fork, early copies of pinned pages included. */
    public static final String FORK_US = "fork_us";

    private static final long KIB = 1024;
    private static final long TAG = 0xF02C0000L;
    private static final long CHILD_TAG = 0xC41D0000L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            StandardParameters.size(64 * KIB),
            StandardParameters.iterations(),
            WorkloadParameter.choice(DONTFORK, "never", "libibverbs' fork protection, which this sets as the profile's"
                    + " nic.register.dontfork (the registrars then mark every pinned registration MADV_DONTFORK, as after"
                    + " ibv_fork_init; on-demand ones never are): never, always, or auto (only when the kernel does"
                    + " not copy pinned pages at fork, as runtimes do on ibv_is_fork_initialized's IBV_FORK_UNNEEDED)",
                    List.of("never", "auto", "always")));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(CORRUPTED, CHILD_FAULTS, FORK_US));
    }

    /** The workload with its declared metadata. */
    public ForkReuseWorkload() {
        super(WorkloadDescriptor.of("fork-reuse", "register, then fork, write, transfer, check, repeat: what each"
                + " kernel and MADV_DONTFORK do to a registration (stale pinned pages show as corrupted iterations)")
                .parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(METRICS)
                .segment(StandardParameters::size).requires(Capability.PUT).build());
    }

    /**
     * The point's profile with libibverbs' fork protection ({@code nic.register.dontfork}) as
     * {@code dontfork} chooses it: the registrars then mark each pinned registration
     * MADV_DONTFORK as ibv_reg_mr does after ibv_fork_init, reference-counted over overlapping
     * registrations. {@code auto} turns it on only where the kernel shares pinned pages
     * copy-on-write, as a runtime does that calls ibv_fork_init unless ibv_is_fork_initialized
     * answers IBV_FORK_UNNEEDED (rdma-core libibverbs/memory.c: ibv_is_fork_initialized answers it
     * when get_copy_on_fork() reports the kernel's copy, and ibv_fork_init then marks nothing).
     */
    @Override
    protected Profile profile(Params params, Profile profile) {
        boolean protect = switch (params.choice(DONTFORK)) {
            case "always" -> true;
            // IBV_FORK_UNNEEDED: the kernel copies pinned pages into the child at fork
            case "auto" -> !"early-copy".equals(profile.choice(OsParameters.FORK_PINNED_PAGES));
            default -> false;
        };
        return profile.withOverrides(Map.of(NicParameters.REGISTER_DONTFORK.name(), Boolean.toString(protect)),
                "fork-reuse dontfork=" + params.choice(DONTFORK));
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        Rank parent = job.rank(0);
        Rank peer = job.rank(1);
        ProcessMemory mem = parent.memory();
        long buf = parent.segment();
        long[] counts = new long[2]; // child faults, fork ps
        CheckedTransfers transfers = new CheckedTransfers(size, iterations,
                "after fork delivered wrong bytes (the registration kept pages the child owns)");
        new SimProcess(job.simulator(), parent.node(), "rank0", ctx -> {
            ctx.sleep(mem.writeTag(buf, size, TAG, 0));
            parent.write(ctx, peer, 0, 0, size, -1);
            parent.awaitSend(ctx);
            for (int i = 0; i < iterations; i++) {
                ProcessMemory.Forked fork = mem.fork();
                ctx.sleep(fork.costPs());
                counts[1] += fork.costPs();
                ProcessMemory child = fork.child();
                ctx.sleep(mem.writeTag(buf, size, TAG + 1 + i, 0));
                // the child runs on another core: its work is not the parent's time
                if (child.touch(buf, true).kind() == FaultKind.SEGV_MAPERR) {
                    counts[0]++;
                } else {
                    child.writeTag(buf, size, CHILD_TAG + i, 0);
                }
                transfers.writeSegment(ctx, parent, peer, size, i, latencies);
                child.exit();
            }
        }).start();
        return transfers.run(() -> {
            // insertion order: Map.of iterates in an order that changes from one JVM to the next
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(CORRUPTED, transfers.corruptedCount());
            m.put(CHILD_FAULTS, counts[0]);
            m.put(FORK_US, iterations == 0 ? 0.0 : counts[1] / (double) iterations / Time.US);
            return m;
        });
    }
}
