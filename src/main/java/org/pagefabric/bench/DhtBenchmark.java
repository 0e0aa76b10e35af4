package org.pagefabric.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagefabric.hw.profile.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workloads;
import org.pagefabric.workload.dht.DhtInsertWorkload;

/**
 * How the distributed hashtable's cost grows with ranks (issue 7's target: 1024 nodes x 32
 * processes in under 10 minutes and 12 GB of heap): one run of {@code dht-insert} per rank
 * count, with its wall time, the heap in use right after it (before the simulation is dropped),
 * and its events.
 */
public final class DhtBenchmark {
    private DhtBenchmark() {
    }

    /**
     * Runs the hashtable at {@code ranks} processes and reports one row.
     *
     * @param profile   profile name or file
     * @param policy    the scheme's policy (rma, am, ...)
     * @param ranks     inserting processes
     * @param perNode   processes per node
     * @param inserts   inserts per process
     * @param seed      master seed
     */
    public static Map<String, Object> run(String profile, String policy, int ranks, int perNode, long inserts,
                                          long seed) {
        var p = ProfileRegistry.resolve(profile);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("processes", (long) ranks);
        params.put("processes_per_node", (long) perNode);
        params.put("iterations", inserts);
        params.put("collision_rate", 0.05);
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long before = rt.totalMemory() - rt.freeMemory();
        long t0 = System.nanoTime();
        long[] heap = {0};
        Map<String, Object> row = PointRun.run(p, policy, Workloads.byName(DhtInsertWorkload.NAME), params, seed);
        double wall = (System.nanoTime() - t0) / 1e9;
        heap[0] = rt.totalMemory() - rt.freeMemory();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ranks", ranks);
        out.put("nodes", Math.max(2, Math.ceilDiv(ranks, perNode)));
        out.put("policy", policy);
        out.put("inserts", (long) ranks * inserts);
        out.put("wall_s", Math.round(wall * 100) / 100.0);
        out.put("heap_MB", Math.max(0, heap[0] - before) / 1_000_000);
        out.put("max_heap_MB", rt.maxMemory() / 1_000_000);
        out.put("events", row.get("events"));
        out.put("events_per_s", Math.round(((Number) row.get("events")).doubleValue() / wall));
        out.put("inserts_per_s", row.get(DhtInsertWorkload.INSERTS_PER_S));
        out.put("verified", row.get("verified"));
        return out;
    }
}
