package org.pagefabric.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.node.CostsFromProfile;
import org.pagefabric.hw.os.MemoryFootprint;
import org.pagefabric.hw.os.ThpMode;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.workload.BandwidthWorkload;
import org.pagefabric.workload.PointRun;

/**
 * {@code pagefabric bench model}: the simulated machine's own speed and size, against its
 * performance targets (docs/PERFORMANCE.md). Each check is one row: what was measured, the value, the target and whether it is met.
 */
public final class ModelBenchmark {
    private static final long GIB = 1L << 30;

    private ModelBenchmark() {
    }

    /**
     * Simulated packets per wall second of streaming 1 MiB RDMA writes between two directly
     * linked nodes of {@code profile}, through the NIC, transport and memory model with every
     * byte verified. A first run of the same length warms the JIT; the second is reported.
     */
    public static Map<String, Object> packetRate(String profileRef, int writes) {
        Profile profile = ProfileRegistry.resolve(profileRef);
        Profile two = twoNodes(profileRef, profile.name());
        PointRun.run(two, PolicyRegistry.DEFAULT, new BandwidthWorkload(), 1 << 20, writes, 1);
        long t0 = System.nanoTime();
        Map<String, Object> row = PointRun.run(two, PolicyRegistry.DEFAULT, new BandwidthWorkload(), 1 << 20, writes, 1);
        double wall = (System.nanoTime() - t0) / 1e9;
        long packets = ((Number) row.get("packets")).longValue();
        double rate = packets / wall;
        return check("packets/s, 1 MiB RDMA writes between 2 nodes, " + profile.name(), rate, "packets/s",
                ">= 1,000,000", rate >= 1e6 && Boolean.TRUE.equals(row.get("verified")));
    }

    /** The profile {@code ref} (a bundled name or a file) with two nodes on one direct link. */
    private static Profile twoNodes(String ref, String name) {
        try {
            Path dir = Files.createTempDirectory("pagefabric-bench");
            Path file = dir.resolve("two-nodes.yaml");
            String parent = ProfileRegistry.bundledNames().contains(ref) ? ref : Path.of(ref).toAbsolutePath().toString();
            Files.writeString(file, "name: " + name + "-two-nodes\n"
                    + "description: " + name + " with two nodes on one direct link\n"
                    + "extends: \"" + parent.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n"
                    + "parameters:\n"
                    + "  network.topology: {value: two_nodes, source: \"assumed: the packet-rate target is two nodes on one link\"}\n");
            try {
                return ProfileRegistry.loadFile(file);
            } finally {
                Files.deleteIfExists(file);
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a temporary profile: " + e.getMessage(), e);
        }
    }

    /** Heap of {@code nodes} idle nodes of {@code profile} built as a cluster. */
    public static Map<String, Object> idleCluster(Profile profile, int nodes) {
        long before = usedHeap();
        Cluster c = Cluster.build(new Simulator(1), profile, nodes);
        long bytes = usedHeap() - before;
        java.lang.ref.Reference.reachabilityFence(c);
        return check(nodes + " idle nodes, " + profile.name(), bytes / 1e6, "MB", "< 2000", bytes < 2_000_000_000L);
    }

    /** Heap of one process mapping 64 GiB and touching 1 GiB, plain or tagged pages. */
    public static List<Map<String, Object>> addressSpace(Profile profile) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (boolean tagged : new boolean[] {false, true}) {
            MemoryFootprint.Report r = MemoryFootprint.touchedAddressSpace(64 * GIB, 64 * GIB, GIB, ThpMode.NEVER, tagged,
                    CostsFromProfile.os(profile));
            rows.add(check("64 GiB mapped, 1 GiB touched" + (tagged ? " (tagged data)" : ""),
                    r.measuredBytes() / 1e6, "MB", "< 200", r.measuredBytes() < 200_000_000L));
        }
        return rows;
    }

    private static Map<String, Object> check(String what, double value, String unit, String target, boolean met) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("check", what);
        row.put("value", Math.round(value * 10) / 10.0);
        row.put("unit", unit);
        row.put("target", target);
        row.put("met", met);
        return row;
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
