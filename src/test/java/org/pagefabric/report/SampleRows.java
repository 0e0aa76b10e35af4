package org.pagefabric.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Tidy rows shaped like the runner's: a latency-versus-size sweep of several policies. */
final class SampleRows {
    static final List<String> POLICIES = List.of("pin", "touch-nopres", "part");
    static final long[] SIZES = {8, 64, 512, 4096, 32768, 262144, 1048576, 4194304};

    private SampleRows() {
    }

    /** Every policy at every size, {@code repetitions} rows each with slightly different latencies. */
    static List<Map<String, Object>> latency(int repetitions) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String policy : POLICIES) {
            int p = POLICIES.indexOf(policy);
            for (long size : SIZES) {
                for (int r = 0; r < repetitions; r++) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("experiment", "part-latency");
                    row.put("policy", policy);
                    row.put("profile", "part-forth");
                    row.put("seed", 42L);
                    row.put("repetition", r);
                    row.put("size_B", size);
                    row.put("iterations", 100);
                    row.put("latency_us", (4.0 + 3 * p) + size / (300.0 - 60 * p) * (1 + 0.05 * r));
                    row.put("bandwidth_MBps", size / ((4.0 + 3 * p) + size / 300.0));
                    row.put("verified", true);
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** A breakdown: time per step of one transfer, categories on x. */
    static List<Map<String, Object>> breakdown() {
        List<Map<String, Object>> rows = new ArrayList<>();
        String[] steps = {"first packet", "SMMU interrupt", "tasklet", "ERR", "retransmission"};
        double[] us = {4, 1, 19, 1, 6};
        for (int i = 0; i < steps.length; i++) {
            rows.add(new LinkedHashMap<>(Map.of("policy", "part", "step", steps[i], "time_us", us[i])));
        }
        return rows;
    }

    static ReportMetadata meta(boolean complete, List<String> requires) {
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("seed", 42L);
        manifest.put("version", "0.1.0-SNAPSHOT");
        manifest.put("commit", "00861d8abc");
        manifest.put("jvm", "Temurin 25");
        manifest.put("complete", complete);
        return new ReportMetadata("part-latency", "Latency of RDMA writes without page faults", "000", "Fig. 7",
                requires, complete, manifest);
    }

    static List<Map<String, Object>> comparison() {
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(compare("pin", 8, 10.0, 10.5));
        rows.add(compare("part", 8, 4.0, 4.2));
        rows.add(compare("touch-nopres", 4194304, "[withheld]", 160.0));
        return rows;
    }

    private static Map<String, Object> compare(String series, long x, Object paper, double ours) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("series", series);
        row.put("x", x);
        row.put("metric", "latency_us");
        row.put("paper", paper);
        row.put("ours", ours);
        row.put("ratio", paper instanceof Double d ? ours / d : null);
        return row;
    }
}
