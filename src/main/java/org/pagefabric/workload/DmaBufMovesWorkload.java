package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.PageOpResult;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Device memory exported as a dma-buf and registered for RDMA (ibv_reg_dmabuf_mr), whose exporter
 * moves it. Rank 0's buffer stands for the device memory; before every {@code move_every}-th
 * transfer its exporter moves the whole buffer to new frames (eviction or migration), then new
 * content is written into it and rank 0 writes it into rank 1's, checked end to end.
 *
 * <p>A registration that pins the buffer is a static attachment (dma_buf_pin,
 * ib_umem_dmabuf_get_pinned): the exporter may not move it, and the move is refused
 * ({@code moves_blocked}). A registration that pins nothing is a dynamic attachment (on mlx5,
 * only with ODP): the move invalidates the NIC's mapping of the whole buffer at once (move_notify)
 * and the next access faults it back in (ib_umem_dmabuf_map_pages), a cost on the transfer that
 * follows each move. Workload {@code dmabuf-mr} runs the same trace on a real dma-buf of device
 * memory ({@link DmaBufMrWorkload}).
 */
public final class DmaBufMovesWorkload extends AbstractWorkload {
    /** Column of the move trace: a move before every n-th transfer (0: never). */
    public static final String MOVE_EVERY = "move_every";
    /** Column of the moves the exporter made. */
    public static final String MOVES = "moves";
    /** Column of the moves refused because the buffer was pinned. */
    public static final String MOVES_BLOCKED = "moves_blocked";
    /** Column of the mean kernel time of one move, the importer's invalidation included. */
    public static final String MOVE_US = "move_us";

    private static final long KIB = 1024;
    private static final long TAG = 0xD3AB0F00L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            StandardParameters.size(64 * KIB),
            StandardParameters.iterations(),
            WorkloadParameter.integer(MOVE_EVERY, 1, "transfers",
                    "the exporter moves the buffer before every n-th transfer (0: never)", 0, 1L << 30));

    static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(MOVES, MOVES_BLOCKED, MOVE_US));
    }

    /** The workload with its declared metadata. */
    public DmaBufMovesWorkload() {
        super(WorkloadDescriptor.of("dmabuf-moves", "device memory registered as a dma-buf whose exporter moves it"
                + " between transfers: refused under a pinning registration, an invalidation and a re-map under an"
                + " on-demand one").parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(METRICS)
                .segment(StandardParameters::size).requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        long every = params.longValue(MOVE_EVERY);
        Rank owner = job.rank(0);
        Rank peer = job.rank(1);
        ProcessMemory mem = owner.memory();
        long buf = owner.segment();
        long[] counts = new long[3]; // moves, blocked, move ps
        CheckedTransfers transfers = new CheckedTransfers(size, iterations,
                "after a move delivered wrong bytes (the NIC kept the buffer's old frames)");
        new SimProcess(job.simulator(), owner.node(), "rank0", ctx -> {
            ctx.sleep(mem.writeTag(buf, size, TAG, 0));
            owner.write(ctx, peer, 0, 0, size, -1);
            owner.awaitSend(ctx);
            for (int i = 0; i < iterations; i++) {
                if (every > 0 && i % every == 0) {
                    // the exporter's work, on its own engine: not the application's time
                    PageOpResult move = mem.moveDeviceBuffer(buf, size);
                    counts[move.done() ? 0 : 1]++;
                    counts[2] += move.costPs();
                }
                ctx.sleep(mem.writeTag(buf, size, TAG + 1 + i, 0));
                transfers.writeSegment(ctx, owner, peer, size, i, latencies);
            }
        }).start();
        return transfers.run(() -> {
            // insertion order: Map.of iterates in an order that changes from one JVM to the next
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(MOVES, counts[0]);
            m.put(MOVES_BLOCKED, counts[1]);
            m.put(MOVE_US, counts[0] == 0 ? 0.0 : counts[2] / (double) counts[0] / Time.US);
            return m;
        });
    }
}
