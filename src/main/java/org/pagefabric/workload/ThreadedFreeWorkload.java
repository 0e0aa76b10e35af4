package org.pagefabric.workload;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.Time;

/**
 * Two threads of one process share a registration cache, as an application thread and a
 * communication library's progress thread do: rank 0's application thread mallocs a buffer
 * (large enough to be mmap'd), fills it and hands it to the progress thread, which writes it into
 * rank 1's segment, checks the bytes there and hands it back. Who frees it is the parameter
 * {@code freed_by}:
 * <ul>
 * <li>{@code app}: the application thread frees each buffer once written, a random delay after
 *   handing over the next one, while the progress thread may be registering that one: the
 *   cache's monitor hears of the unmap in the middle of another thread's update (a race window,
 *   counted). The next malloc gets the freed addresses back with new frames, so a registration
 *   that outlived the free makes the next transfer send the old frames ({@code corrupted});</li>
 * <li>{@code library}: the progress thread frees each buffer through the library
 *   ({@link RegistrationPolicy#free}) once checked, as a library does with a buffer whose
 *   ownership was handed to it.</li>
 * </ul>
 */
public final class ThreadedFreeWorkload extends AbstractWorkload {
    /** Column of who frees the buffers. */
    public static final String FREED_BY = "freed_by";
    /** Column of the bound of the application thread's delay before a free. */
    public static final String FREE_DELAY = "free_delay_max_us";
    /** Column of the count of transfers that delivered other bytes than the buffer held. */
    public static final String CORRUPTED = "corrupted";
    /** Column of the invalidations that arrived while another thread was registering. */
    public static final String RACE_WINDOWS = "race_windows";
    /** Column of the invalidations lost to a concurrent update of the cache. */
    public static final String LOST = "lost_invalidations";

    private static final long KIB = 1024;
    private static final long TAG = 0x7F4EE000L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            // 256 KiB: above glibc's default mmap threshold, so each buffer is a mapping of its own
            StandardParameters.size(256 * KIB),
            StandardParameters.iterations(),
            WorkloadParameter.choice(FREED_BY, "app",
                    "who frees each buffer: the application thread, while the progress thread works on the next "
                            + "(app), or the progress thread through the library once the buffer is checked (library)",
                    List.of("app", "library")),
            WorkloadParameter.integer(FREE_DELAY, 100, "us",
                    "the application thread frees a written buffer after a delay drawn uniformly from 0 to this "
                            + "(freed_by=app)", 0, 1_000_000));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(CORRUPTED, RACE_WINDOWS, LOST));
    }

    /** The workload with its declared metadata. */
    public ThreadedFreeWorkload() {
        super(WorkloadDescriptor.of("threaded-free", "an application thread frees buffers while a progress thread"
                + " registers and writes the next ones through a shared registration cache (the race windows of a"
                + " cache monitor)").parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(METRICS)
                // rank 1's segment receives each buffer
                .segment(p -> (StandardParameters.size(p) + Kernel.PAGE_SIZE - 1) / Kernel.PAGE_SIZE * Kernel.PAGE_SIZE)
                .requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        boolean appFrees = params.is(FREED_BY, "app");
        long maxDelayPs = params.longValue(FREE_DELAY) * Time.US;
        Rank initiator = job.rank(0);
        Rank peer = job.rank(1);
        // mmap threshold, trim, trim threshold, top pad: glibc's defaults
        UserAllocator heap = initiator.memory().allocator(
                new UserAllocator.Config(128 * KIB, true, 128 * KIB, 128 * KIB, false, UserAllocator.Linkage.DYNAMIC));
        Completion[] handed = new Completion[iterations];
        Completion[] written = new Completion[iterations];
        for (int i = 0; i < iterations; i++) {
            handed[i] = new Completion("threaded-free.handed" + i);
            written[i] = new Completion("threaded-free.written" + i);
        }
        CheckedTransfers transfers = new CheckedTransfers(size, iterations, "sent other bytes than the buffer held");
        new SimProcess(job.simulator(), initiator.node(), "rank0-app", ctx -> {
            long previous = 0;
            for (int i = 0; i < iterations; i++) {
                if (!appFrees && i > 0) {
                    ctx.await(written[i - 1]);
                }
                long buf = malloc(ctx, heap, size);
                ctx.sleep(initiator.memory().writeTag(buf, size, TAG + i, 0));
                handed[i].complete(buf);
                if (appFrees && i > 0) {
                    // the last free waits for the last transfer, so every lost invalidation meets a reuse
                    ctx.await(written[i == iterations - 1 ? i : i - 1]);
                    ctx.sleep(maxDelayPs == 0 ? 0 : ctx.random().nextLong(maxDelayPs + 1));
                    ctx.sleep(heap.free(previous));
                }
                previous = buf;
            }
            if (appFrees) {
                ctx.await(written[iterations - 1]);
                ctx.sleep(heap.free(previous));
            }
        }).start();
        new SimProcess(job.simulator(), initiator.node(), "rank0-progress", ctx -> {
            for (int i = 0; i < iterations; i++) {
                long buf = ctx.await(handed[i]);
                long t0 = ctx.now();
                initiator.write(ctx, peer, buf - initiator.segment(), 0, size, i);
                var wc = initiator.awaitSend(ctx);
                long took = ctx.now() - t0;
                latencies.record(took);
                transfers.timed(took, wc.status());
                if (wc.status() == Outcome.SUCCESS && !initiator.memory().sameBytes(buf, peer.memory(),
                        peer.segment(), size)) {
                    transfers.corrupted();
                }
                if (!appFrees) {
                    ctx.sleep(initiator.free(ctx, buf, size, () -> heap.free(buf)));
                }
                written[i].complete();
            }
        }).start();
        return transfers.run(() -> {
            Map<String, Object> m = new HashMap<>();
            m.put(CORRUPTED, transfers.corruptedCount());
            m.put(RACE_WINDOWS, counted(Metric.RACE_WINDOWS, initiator));
            m.put(LOST, counted(Metric.LOST_INVALIDATIONS, initiator));
            return m;
        });
    }

    /** What the policy counts on {@code rank}, or null (a blank cell) when it does not count it. */
    private static Long counted(Metric metric, Rank rank) {
        long n = rank.count(metric);
        return n == RegistrationPolicy.NOT_COUNTED ? null : n;
    }

    private static long malloc(ProcessContext ctx, UserAllocator heap, long size) {
        UserAllocator.Allocation a = heap.malloc(size);
        ctx.sleep(a.costPs());
        if (a.address() == 0) {
            throw new SimulationException("rank 0: malloc(" + size + ") failed");
        }
        return a.address();
    }
}
