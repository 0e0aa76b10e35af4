package org.pagefabric.experiment;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;

/**
 * The heap a point holds while it runs, estimated from its parameters so that {@link PointPool}
 * can admit points without overcommitting the heap. The model is linear in what the simulation
 * keeps per unit: a fixed base, each process and each node (their endpoints, queues, stacks and
 * registration state), each byte of a message buffer per rank, and each byte of data an
 * application holds (a sort's {@code data_MiB}). The coefficients come from the live heap of
 * measured points (docs/PERFORMANCE.md), taken from the workload that needs the most per unit
 * and rounded up, so the estimate errs on the large side: admission may run fewer points at
 * once than would fit, never more.
 */
public final class Footprint {
    static final long MIB = 1L << 20;
    /** A point that keeps little: one simulation, its profile, its statistics (measured: 1 to 13 MiB). */
    static final long BASE = 16 * MIB;
    /** Per process (measured: dht-insert 0.45 MiB per process at 256 and 1024 processes, 10 000 inserts each). */
    static final long PER_PROCESS = MIB / 2;
    /** Per node: its CPU, kernel, NIC and IOMMU (measured: about 0.2 MiB, dht-insert at 4 against 32 processes per node). */
    static final long PER_NODE = MIB / 2;
    /** Per byte of message size, per rank, in 1/100 bytes (measured: latency 0.52 per byte per rank at 256 MiB and 1 GiB). */
    static final long PER_MESSAGE_BYTE_CENTS = 55;
    /** Per byte of application data, in 1/100 bytes (measured: coral-sort 2.05 per byte at 64 and 256 MiB). */
    static final long PER_DATA_BYTE_CENTS = 220;

    private Footprint() {
    }

    /** The estimated footprint of point {@code p} of an experiment of {@code workload}, in bytes. */
    public static long estimate(Workload workload, ExperimentPoint p) {
        Map<String, Long> in = inputs(workload, workload.resolve(p.workloadValues()));
        double bytes = BASE + (double) PER_PROCESS * in.get("processes") + (double) PER_NODE * in.get("nodes")
                + PER_MESSAGE_BYTE_CENTS / 100.0 * in.get("message_B") * in.get("ranks")
                + PER_DATA_BYTE_CENTS / 100.0 * in.get("data_B");
        return (long) Math.min(Long.MAX_VALUE / 4, bytes);
    }

    /** The model's inputs: ranks, processes, nodes, message size and application data in bytes. */
    static Map<String, Long> inputs(Workload workload, Map<String, Object> params) {
        Map<String, Long> in = new LinkedHashMap<>();
        long ranks = Math.max(1, workload.ranks(params));
        in.put("ranks", ranks);
        in.put("processes", processes(workload, params));
        in.put("nodes", (long) Math.max(1, workload.nodes(params)));
        in.put("message_B", params.get(StandardParameters.SIZE) instanceof Number n ? n.longValue() : 0L);
        in.put("data_B", dataBytes(params));
        return in;
    }

    /**
     * The application's processes: the simulation's ranks, or its {@code processes} parameter
     * where several processes share a node's endpoint.
     */
    static long processes(Workload workload, Map<String, Object> params) {
        long ranks = Math.max(1, workload.ranks(params));
        return params.get("processes") instanceof Number n ? Math.max(ranks, n.longValue()) : ranks;
    }

    /** The bytes of data an application holds and moves ({@code data_MiB}: a sort's), or 0. */
    static long dataBytes(Map<String, Object> params) {
        return params.get("data_MiB") instanceof Number n ? n.longValue() * MIB : 0L;
    }
}
