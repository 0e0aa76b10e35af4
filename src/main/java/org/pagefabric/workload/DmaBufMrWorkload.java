package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.DeviceMemory;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.PageOpResult;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The trace of {@code dmabuf-moves} on device memory itself: the node's {@link DeviceMemory}
 * exports rank 0's buffer as a dma-buf, rank 0 registers it through its policy's
 * {@link DmaBufRegistrar} ({@code ibv_reg_dmabuf_mr} at {@link #DEVICE_IOVA}), and before every
 * {@code move_every}-th transfer the exporter moves the buffer; then it writes new content into
 * it and rank 0 writes the buffer into rank 1's segment from the region's key, checked end to end.
 *
 * <p>Under a registration with a dynamic attachment (ODP) the move calls the region's
 * move_notify, which zaps the NIC's translation, and the next transfer faults and re-maps the
 * buffer from the attachment; under a static one (a pinning policy, dma_buf_pin) the exporter
 * refuses the move ({@code moves_blocked}). Only policies offering {@link Capability#DMA_BUF} run
 * it. A workload of its own rather than an option of {@code dmabuf-moves}, whose rows stay those
 * of host memory standing in for the device's.
 */
public final class DmaBufMrWorkload extends AbstractWorkload {
    /**
     * Where the NIC addresses the device buffer: an address no CPU mapping backs (a GPU's
     * unified virtual address, as CUDA applications pass to ibv_reg_dmabuf_mr).
     */
    public static final long DEVICE_IOVA = 0x7e00_0000_0000L;

    private static final long KIB = 1024;
    private static final long TAG = 0xD3AB1F00L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            StandardParameters.size(64 * KIB),
            StandardParameters.iterations(),
            WorkloadParameter.integer(DmaBufMovesWorkload.MOVE_EVERY, 1, "transfers",
                    "the exporter moves the buffer before every n-th transfer (0: never)", 0, 1L << 30));

    /** The workload with its declared metadata. */
    public DmaBufMrWorkload() {
        super(WorkloadDescriptor.of("dmabuf-mr", "a dma-buf of device memory registered with ibv_reg_dmabuf_mr whose"
                + " exporter moves it between transfers: refused under a static (pinned) attachment, move_notify and a"
                + " re-map under a dynamic one").parameters(PARAMETERS).lowerIsBetter("latency_us")
                .metrics(DmaBufMovesWorkload.METRICS).segment(StandardParameters::size)
                .requires(Capability.PUT, Capability.DMA_BUF).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        long every = params.longValue(DmaBufMovesWorkload.MOVE_EVERY);
        Rank owner = job.rank(0);
        Rank peer = job.rank(1);
        DmaBufRegistrar registrar = owner.policy().dmaBuf(owner.node());
        if (registrar == null) {
            throw new PolicyRefusal(owner.policy().name() + " registers no dma-bufs (it does not offer "
                    + Capability.DMA_BUF.phrase() + ")");
        }
        DeviceMemory exporter = owner.memory().deviceMemory();
        DmaBuf buf = exporter.export(size);
        long[] counts = new long[3]; // moves, blocked, move ps
        CheckedTransfers transfers = new CheckedTransfers(size, iterations,
                "after a move delivered wrong bytes (the NIC kept the dma-buf's old frames)");
        new SimProcess(job.simulator(), owner.node(), "rank0", ctx -> {
            DmaBufRegistrar.Registration mr = owner.registerDmaBuf(registrar, buf, 0, buf.size(), DEVICE_IOVA);
            ctx.sleep(mr.costPs());
            buf.writeTag(TAG, 0);
            owner.write(ctx, peer, mr, DEVICE_IOVA, null, 0, size, -1);
            owner.awaitSend(ctx);
            for (int i = 0; i < iterations; i++) {
                if (every > 0 && i % every == 0) {
                    // the exporter's work, on its own engine: not the application's time
                    PageOpResult move = exporter.move(buf);
                    counts[move.done() ? 0 : 1]++;
                    counts[2] += move.costPs();
                }
                long tag = TAG + 1 + i;
                buf.writeTag(tag, 0);
                long t0 = ctx.now();
                owner.write(ctx, peer, mr, DEVICE_IOVA, null, 0, size, i);
                CompletionEntry wc = owner.awaitSend(ctx);
                long took = ctx.now() - t0;
                latencies.record(took);
                transfers.timed(took, wc.status());
                if (wc.status() == Outcome.SUCCESS
                        && !peer.memory().verifyTag(peer.segment(), size, tag, 0)) {
                    transfers.corrupted();
                }
            }
        }).start();
        return transfers.run(() -> {
            // insertion order: Map.of iterates in an order that changes from one JVM to the next
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(DmaBufMovesWorkload.MOVES, counts[0]);
            m.put(DmaBufMovesWorkload.MOVES_BLOCKED, counts[1]);
            m.put(DmaBufMovesWorkload.MOVE_US, counts[0] == 0 ? 0.0 : counts[2] / (double) counts[0] / Time.US);
            return m;
        });
    }
}
