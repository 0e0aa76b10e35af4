package org.pagefabric.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * {@code pagefabric bench part}: the speed targets for PART, each one row (check, value,
 * unit, target, met): a 1 MiB write with every destination page faulting (PIO, the most events)
 * in under 50 ms of wall time, and 000 Fig. 11's sweep (1 MiB, PIO and PIA, fault frequency 0 to
 * 100 %) with 50 timed writes per point in under 20 s, on one thread. Each row gives the wall
 * time (what the target is about; it grows on a loaded machine) and the thread's CPU time.
 */
public final class PartBenchmark {
    private static final long MIB = 1L << 20;
    private static final double[] FRACTIONS = {0, 0.05, 0.2, 0.4, 0.8, 1};

    private PartBenchmark() {
    }

    /**
     * The checks on profile {@code part-forth}.
     *
     * @param writes timed writes per point of the sweep (50 for the target)
     * @param warmUp untimed single-write runs first, so the JIT has compiled the model
     */
    public static List<Map<String, Object>> run(int writes, int warmUp) {
        Profile p = ProfileRegistry.load("part-forth");
        Workload w = WorkloadRegistry.standard().byName("fault-latency");
        for (int i = 0; i < warmUp; i++) {
            point(p, w, "part-pio", 1.0, 1, i);
        }
        int reps = 5;
        int timed = 10;
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = cpu.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Map<String, Object> one = point(p, w, "part-pio", 1.0, timed, 42);
        // Per write, with the point's set-up and warm-up write shared out: (timed + 1) writes in all.
        double oneMs = (System.nanoTime() - t0) / 1e6 / (timed + 1);
        double oneCpuMs = (cpu.getCurrentThreadCpuTime() - c0) / 1e6 / (timed + 1);
        if (!Boolean.TRUE.equals(one.get("verified"))) {
            throw new IllegalStateException("the 1 MiB all-fault write did not verify");
        }
        long s0 = System.nanoTime();
        long sc0 = cpu.getCurrentThreadCpuTime();
        long transfers = 0;
        for (String policy : List.of("part-pio", "part-pia")) {
            for (double f : FRACTIONS) {
                for (int r = 0; r < reps; r++) {
                    point(p, w, policy, f, Math.max(1, writes / reps), 1000 + r);
                    transfers += Math.max(1, writes / reps);
                }
            }
        }
        double sweepS = (System.nanoTime() - s0) / 1e9;
        double sweepCpuS = (cpu.getCurrentThreadCpuTime() - sc0) / 1e9;
        return List.of(
                row("1 MiB write, every destination page faulting (part-pio; a point of 1 warm-up + " + timed
                        + " timed writes, set-up included, per write)",
                        round(oneMs), round(oneCpuMs), "ms", "< 50", oneMs < 50),
                row("part.fig11 sweep: 2 policies x 6 fault frequencies x " + (writes / reps * reps)
                        + " timed 1 MiB writes (" + transfers + " in all)", round(sweepS), round(sweepCpuS), "s", "< 20",
                        sweepS < 20));
    }

    private static Map<String, Object> point(Profile p, Workload w, String policy, double fraction, int iterations,
                                             long seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("size_B", MIB);
        params.put("iterations", (long) iterations);
        params.put("fault_fraction", fraction);
        return PointRun.run(p, policy, w, params, seed);
    }

    private static Map<String, Object> row(String check, double wall, double cpu, String unit, String target,
                                           boolean met) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("check", check);
        r.put("wall", wall);
        r.put("cpu", cpu);
        r.put("unit", unit);
        r.put("target", target);
        r.put("met", met);
        return r;
    }

    private static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }
}
