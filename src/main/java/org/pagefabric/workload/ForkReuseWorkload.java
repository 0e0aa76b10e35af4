package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.FaultKind;
import org.pagefabric.hw.os.ForkPinnedPages;
import org.pagefabric.hw.os.ForkResult;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.Vma;
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
 * every pinned registration is MADV_DONTFORK, as libibverbs' ibv_fork_init has ibv_reg_mr do:
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
            WorkloadParameter.choice(DONTFORK, "never", "whether every pinned registration is MADV_DONTFORK, as after"
                    + " ibv_fork_init (on-demand ones never are): never, always, or auto (only when the kernel does"
                    + " not copy pinned pages at fork, as runtimes do on ibv_is_fork_initialized's IBV_FORK_UNNEEDED)",
                    List.of("never", "auto", "always")));

    private static final List<String> METRICS;

    static {
        List<String> m = new ArrayList<>(PointRun.METRICS);
        int at = m.indexOf("verified") + 1;
        m.add(at, FORK_US);
        m.add(at, CHILD_FAULTS);
        m.add(at, CORRUPTED);
        METRICS = List.copyOf(m);
    }

    /** The workload with its declared metadata. */
    public ForkReuseWorkload() {
        super("fork-reuse", "register, then fork, write, transfer, check, repeat: what each kernel and MADV_DONTFORK"
                + " do to a registration (stale pinned pages show as corrupted iterations)", 2, PARAMETERS,
                "latency_us", false);
    }

    @Override
    public long segmentBytes(Map<String, Object> params) {
        return StandardParameters.size(params);
    }

    @Override
    public List<String> metrics() {
        return METRICS;
    }

    @Override
    public Run start(Job job, Map<String, Object> params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        Rank parent = job.rank(0);
        Rank peer = job.rank(1);
        Kernel k = parent.node().kernel();
        boolean dontFork = switch ((String) params.get(DONTFORK)) {
            case "always" -> true;
            case "auto" -> k.config().forkPinned() != ForkPinnedPages.EARLY_COPY;
            default -> false;
        };
        AddressSpace as = parent.process();
        long buf = parent.segment();
        long[] counts = new long[2]; // child faults, fork ps
        CheckedTransfers transfers = new CheckedTransfers(size, iterations,
                "after fork delivered wrong bytes (the registration kept pages the child owns)");
        new SimProcess(job.simulator(), parent.node(), "rank0", ctx -> {
            ctx.sleep(k.writeTag(as, buf, size, TAG, 0));
            parent.write(ctx, peer, 0, 0, size, -1);
            parent.awaitSend(ctx);
            for (int i = 0; i < iterations; i++) {
                if (dontFork) {
                    ctx.sleep(dontForkPinned(k, as));
                }
                ForkResult fork = k.fork(as);
                ctx.sleep(fork.costPs());
                counts[1] += fork.costPs();
                AddressSpace child = fork.child();
                ctx.sleep(k.writeTag(as, buf, size, TAG + 1 + i, 0));
                // the child runs on another core: its work is not the parent's time
                if (k.touch(child, buf, true).kind() == FaultKind.SEGV_MAPERR) {
                    counts[0]++;
                } else {
                    k.writeTag(child, buf, size, CHILD_TAG + i, 0);
                }
                transfers.writeSegment(ctx, parent, peer, size, i, latencies);
                k.exit(child);
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

    /**
     * MADV_DONTFORK on every run of pinned pages not yet marked: what ibv_fork_init has
     * ibv_reg_mr do to each registration that is not on demand (rdma-core libibverbs/verbs.c,
     * ibv_reg_mr_iova2: {@code if (!odp_mr && ibv_dontfork_range(addr, length))}), the
     * policy's own buffers included, as providers mark their queues (ibv_dontfork_range).
     * Charged before the fork rather than at each registration: the same calls, earlier.
     *
     * @return kernel time in picoseconds
     */
    private static long dontForkPinned(Kernel k, AddressSpace as) {
        long cost = 0;
        for (Vma v : List.copyOf(as.vmas())) {
            if (v.has(Vma.DONTCOPY)) {
                continue;
            }
            long run = -1;
            for (long va = v.start(); va <= v.end(); va += Kernel.PAGE_SIZE) {
                boolean pinned = va < v.end() && k.heldResident(as, va);
                if (pinned && run < 0) {
                    run = va;
                } else if (!pinned && run >= 0) {
                    cost += k.madvise(as, run, va - run, Advice.DONTFORK);
                    run = -1;
                }
            }
        }
        return cost;
    }

    @Override
    public Set<Capability> requires(Map<String, Object> params) {
        return Set.of(Capability.PUT);
    }
}
