package org.pagefabric.workload;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The hazard of every registration cache, as an application meets it: each iteration both ranks
 * malloc a buffer (large enough to be mmap'd), rank 0 transfers between them (an RDMA write of
 * its buffer into rank 1's, or a read of rank 1's into its own), the destination is checked
 * against the origin, and both buffers are freed (munmap'd). The next malloc gets the same
 * addresses back with new frames, so a registration that outlived the free names the old
 * frames: the transfer succeeds on the wire and the data goes to, or comes from, memory the
 * application no longer sees. Such iterations are counted in {@code corrupted}.
 */
public final class AllocReuseWorkload extends AbstractWorkload {
    /** Column of the allocator's mmap threshold. */
    public static final String MMAP_THRESHOLD = "mmap_threshold_B";
    /** Column of the allocator's linkage switch. */
    public static final String CUSTOM_ALLOCATOR = "custom_allocator";
    /** Column of the transfer direction switch. */
    public static final String READ = "rdma_read";
    /** Column of the count of silently corrupted iterations. */
    public static final String CORRUPTED = "corrupted";

    private static final long KIB = 1024;
    private static final long TAG = 0xA110C000L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            // 256 KiB: above glibc's default mmap threshold, so each buffer is its own mapping
            StandardParameters.size(256 * KIB),
            StandardParameters.iterations(),
            // glibc's default M_MMAP_THRESHOLD; below it buffers come from the heap and are not unmapped by free
            WorkloadParameter.integer(MMAP_THRESHOLD, 128 * KIB, "B",
                    "allocations of at least this size are mmap'd and munmap'd by free (M_MMAP_THRESHOLD)", 16,
                    1L << 30),
            WorkloadParameter.flag(CUSTOM_ALLOCATOR, false,
                    "the allocator makes its own system calls (statically linked or custom), bypassing memory hooks"),
            WorkloadParameter.flag(READ, false, "rank 0 reads rank 1's buffer instead of writing its own into it"));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(CORRUPTED));
    }

    /** The workload with its declared metadata. */
    public AllocReuseWorkload() {
        super(WorkloadDescriptor.of("alloc-reuse", "malloc, RDMA transfer, check, free, repeat: the same addresses"
                + " come back with new frames (stale registrations show as corrupted iterations)")
                .parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(METRICS)
                // the buffers come from the allocator, not the segment: one page is enough
                .segment(Kernel.PAGE_SIZE)
                // a get or a put, as the parameter says
                .requires(p -> Set.of(p.flag(READ) ? Capability.GET : Capability.PUT)).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        boolean read = params.flag(READ);
        UserAllocator.Config config = new UserAllocator.Config(params.longValue(MMAP_THRESHOLD), true, 128 * KIB,
                128 * KIB, false, params.flag(CUSTOM_ALLOCATOR) ? UserAllocator.Linkage.CUSTOM
                        : UserAllocator.Linkage.DYNAMIC);
        Rank initiator = job.rank(0);
        Rank peer = job.rank(1);
        UserAllocator initiatorHeap = allocator(initiator, config);
        UserAllocator peerHeap = allocator(peer, config);
        // out-of-band coordination (as an MPI exchange of addresses would be), not part of what is timed
        Completion[] ready = new Completion[iterations];
        Completion[] checked = new Completion[iterations];
        for (int i = 0; i < iterations; i++) {
            ready[i] = new Completion("alloc-reuse.ready" + i);
            checked[i] = new Completion("alloc-reuse.checked" + i);
        }
        CheckedTransfers transfers = new CheckedTransfers(size, iterations, "delivered wrong bytes");
        new SimProcess(job.simulator(), peer.node(), "rank1", ctx -> {
            for (int i = 0; i < iterations; i++) {
                long buf = malloc(ctx, peer, peerHeap, size);
                if (read) {
                    ctx.sleep(fill(peer, buf, size, i));
                }
                ready[i].complete(buf);
                ctx.await(checked[i]);
                ctx.sleep(peerHeap.free(buf));
            }
        }).start();
        new SimProcess(job.simulator(), initiator.node(), "rank0", ctx -> {
            for (int i = 0; i < iterations; i++) {
                long buf = malloc(ctx, initiator, initiatorHeap, size);
                if (!read) {
                    ctx.sleep(fill(initiator, buf, size, i));
                }
                long remote = ctx.await(ready[i]);
                long t0 = ctx.now();
                // Rank addresses buffers by offset from its segment; these lie outside it
                if (read) {
                    initiator.read(ctx, peer, remote - peer.segment(), buf - initiator.segment(), size, i);
                } else {
                    initiator.write(ctx, peer, buf - initiator.segment(), remote - peer.segment(), size, i);
                }
                var wc = initiator.awaitSend(ctx);
                long took = ctx.now() - t0;
                latencies.record(took);
                transfers.timed(took, wc.status());
                if (wc.status() == Outcome.SUCCESS && !sameBytes(initiator, buf, peer, remote, size)) {
                    transfers.corrupted();
                }
                checked[i].complete();
                ctx.sleep(initiatorHeap.free(buf));
            }
        }).start();
        return transfers.run(() -> Map.of(CORRUPTED, transfers.corruptedCount()));
    }

    private static UserAllocator allocator(Rank r, UserAllocator.Config config) {
        return r.memory().allocator(config);
    }

    private static long malloc(ProcessContext ctx, Rank r, UserAllocator heap, long size) {
        UserAllocator.Allocation a = heap.malloc(size);
        ctx.sleep(a.costPs());
        if (a.address() == 0) {
            throw new SimulationException("rank " + r.id() + ": malloc(" + size + ") failed");
        }
        return a.address();
    }

    /** Writes this iteration's content, different from every other iteration's, so old frames differ. */
    private static long fill(Rank r, long va, long size, int iteration) {
        ProcessMemory mem = r.memory();
        return mem.writeTag(va, size, TAG + iteration, 0);
    }

    /** Whether the destination holds what the origin holds (both rank 0's and rank 1's view of them). */
    private static boolean sameBytes(Rank a, long aVa, Rank b, long bVa, long size) {
        return a.memory().sameBytes(aVa, b.memory(), bVa, size);
    }
}
