package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.DeviceMemory;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PageOpResult;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.PolicyRefusal;
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
 * follows each move.
 *
 * <p>With {@code memory=device} the buffer is device memory itself: the node's
 * {@link DeviceMemory} exports it as a dma-buf, rank 0 registers it through its policy's
 * {@link DmaBufRegistrar} ({@code ibv_reg_dmabuf_mr} at {@link #DEVICE_IOVA}) and writes from that
 * region's key; the exporter's move calls the region's move_notify (dynamic attachment) or is
 * refused because the registration pinned it (static attachment). Only policies offering
 * {@link Capability#DMA_BUF} run it. The default, {@code host}, registers host memory standing in
 * for the device's, moved by {@link Kernel#moveDeviceBuffer} under the process's MMU notifier.
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

    /** Parameter: what stands for the device memory, {@value #HOST} or {@value #DEVICE}. */
    public static final String MEMORY = "memory";
    /** Host memory of rank 0's segment, moved under its MMU notifier. */
    public static final String HOST = "host";
    /** A dma-buf of the node's device memory, registered with ibv_reg_dmabuf_mr. */
    public static final String DEVICE = "device";
    /**
     * Where the NIC addresses the device buffer: an address no CPU mapping backs (a GPU's
     * unified virtual address, as CUDA applications pass to ibv_reg_dmabuf_mr).
     */
    public static final long DEVICE_IOVA = 0x7e00_0000_0000L;

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    private static final long KIB = 1024;
    private static final long TAG = 0xD3AB0F00L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            StandardParameters.size(64 * KIB),
            StandardParameters.iterations(),
            WorkloadParameter.integer(MOVE_EVERY, 1, "transfers",
                    "the exporter moves the buffer before every n-th transfer (0: never)", 0, 1L << 30),
            WorkloadParameter.choice(MEMORY, "host: host memory stands for the device's, moved under the MMU"
                    + " notifier; device: a dma-buf of device memory registered with ibv_reg_dmabuf_mr", HOST, DEVICE));

    private static final List<String> METRICS;

    static {
        List<String> m = new ArrayList<>(PointRun.METRICS);
        int at = m.indexOf("verified") + 1;
        m.add(at, MOVE_US);
        m.add(at, MOVES_BLOCKED);
        m.add(at, MOVES);
        METRICS = List.copyOf(m);
    }

    /** The workload with its declared metadata. */
    public DmaBufMovesWorkload() {
        super("dmabuf-moves", "device memory registered as a dma-buf whose exporter moves it between transfers:"
                + " refused under a pinning registration, an invalidation and a re-map under an on-demand one", 2,
                PARAMETERS, "latency_us", false);
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
        long every = (Long) params.get(MOVE_EVERY);
        if (DEVICE.equals(params.get(MEMORY))) {
            return startDevice(job, size, iterations, every, latencies);
        }
        Rank owner = job.rank(0);
        Rank peer = job.rank(1);
        Kernel k = owner.node().kernel();
        AddressSpace as = owner.process();
        long buf = owner.segment();
        long[] counts = new long[3]; // moves, blocked, move ps
        CheckedTransfers transfers = new CheckedTransfers(size, iterations,
                "after a move delivered wrong bytes (the NIC kept the buffer's old frames)");
        new SimProcess(job.simulator(), owner.node(), "rank0", ctx -> {
            ctx.sleep(k.writeTag(as, buf, size, TAG, 0));
            owner.write(ctx, peer, 0, 0, size, -1);
            owner.awaitSend(ctx);
            for (int i = 0; i < iterations; i++) {
                if (every > 0 && i % every == 0) {
                    // the exporter's work, on its own engine: not the application's time
                    PageOpResult move = k.moveDeviceBuffer(as, buf, size);
                    counts[move.done() ? 0 : 1]++;
                    counts[2] += move.costPs();
                }
                ctx.sleep(k.writeTag(as, buf, size, TAG + 1 + i, 0));
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

    /** The same trace with the buffer in device memory, registered as a dma-buf. */
    private Run startDevice(Job job, long size, int iterations, long every, LatencyHistogram latencies) {
        Rank owner = job.rank(0);
        Rank peer = job.rank(1);
        DmaBufRegistrar registrar = owner.policy().dmaBuf(owner.node());
        if (registrar == null) {
            throw new PolicyRefusal(owner.policy().name() + " registers no dma-bufs (it does not offer "
                    + Capability.DMA_BUF.phrase() + ")");
        }
        DeviceMemory exporter = owner.node().kernel().deviceMemory();
        DmaBuf buf = exporter.export(size);
        long[] counts = new long[3]; // moves, blocked, move ps
        CheckedTransfers transfers = new CheckedTransfers(size, iterations,
                "after a move delivered wrong bytes (the NIC kept the dma-buf's old frames)");
        new SimProcess(job.simulator(), owner.node(), "rank0", ctx -> {
            DmaBufRegistrar.Registration reg = registrar.register(owner.endpoint(), buf, 0, buf.size(), DEVICE_IOVA,
                    ACCESS);
            ctx.sleep(reg.costPs());
            MemoryRegion mr = reg.region();
            buf.writeTag(TAG, 0);
            owner.write(ctx, peer, mr, DEVICE_IOVA, null, 0, size, -1);
            owner.awaitSend(ctx);
            for (int i = 0; i < iterations; i++) {
                if (every > 0 && i % every == 0) {
                    PageOpResult move = exporter.move(buf);
                    counts[move.done() ? 0 : 1]++;
                    counts[2] += move.costPs();
                }
                long tag = TAG + 1 + i;
                buf.writeTag(tag, 0);
                long t0 = ctx.now();
                owner.write(ctx, peer, mr, DEVICE_IOVA, null, 0, size, i);
                WorkCompletion wc = owner.awaitSend(ctx);
                long took = ctx.now() - t0;
                latencies.record(took);
                transfers.timed(took, wc.status());
                if (wc.status() == CompletionStatus.SUCCESS
                        && !peer.node().kernel().verifyTag(peer.process(), peer.segment(), size, tag, 0)) {
                    transfers.corrupted();
                }
            }
        }).start();
        return transfers.run(() -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(MOVES, counts[0]);
            m.put(MOVES_BLOCKED, counts[1]);
            m.put(MOVE_US, counts[0] == 0 ? 0.0 : counts[2] / (double) counts[0] / Time.US);
            return m;
        });
    }

    @Override
    public Set<Capability> requires(Map<String, Object> params) {
        return DEVICE.equals(params.get(MEMORY)) ? Set.of(Capability.PUT, Capability.DMA_BUF) : Set.of(Capability.PUT);
    }
}
