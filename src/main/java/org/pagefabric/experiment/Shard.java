package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.pagefabric.workload.SearchedParameter;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;

/**
 * Shard {@code index} of {@code count}: a deterministic share of an experiment's runs, so that
 * {@code count} machines together run every point exactly once. Shares are balanced by an
 * estimate of each run's cost ({@link #cost}) rather than dealt round-robin, because an
 * experiment's points differ in cost by orders of magnitude (a 1 GiB transfer beside an 8-byte
 * one, 1024 processes beside 2): the runs are taken largest estimate first (ties by run index)
 * and each goes to the shard with the least estimated work so far. Ties go to the first shard at or
 * after a given one, so that a sweep deals each experiment on from where the previous one stopped:
 * otherwise every small experiment would put its largest run on shard 1.
 * The assignment depends only on the spec's runs, never on the machine, so every shard of a
 * sweep computes the same partition independently.
 *
 * @param index which shard, from 1
 * @param count how many shards, at least 1
 */
public record Shard(int index, int count) {
    /** Checks {@code 1 <= index <= count}. */
    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new IllegalArgumentException("--shard " + index + "/" + count
                    + ": the shard number must be from 1 to the shard count, e.g. 1/4");
        }
    }

    /**
     * Parses {@code I/N}.
     *
     * @throws IllegalArgumentException in one line naming {@code --shard}, the value and the form expected
     */
    public static Shard parse(String text) {
        String[] parts = text.strip().split("/", -1);
        if (parts.length == 2) {
            try {
                int i = Integer.parseInt(parts[0].strip());
                int n = Integer.parseInt(parts[1].strip());
                if (n >= 1 && i >= 1 && i <= n) {
                    return new Shard(i, n);
                }
            } catch (NumberFormatException e) {
                // reported below with the form expected
            }
        }
        throw new IllegalArgumentException("--shard '" + text + "' is not valid; I/N with 1 <= I <= N, e.g. 1/4");
    }

    /**
     * This shard's runs of {@code points} (all of an experiment's runs, in run order), in run order.
     *
     * @param workload the experiment's workload, whose parameters the estimate reads
     * @param first    where the dealing starts: ties between equally loaded shards go to the first
     *                 at or after shard {@code first % count + 1}; a sweep passes the number of
     *                 runs of the experiments before this one
     */
    public List<ExperimentPoint> select(Workload workload, List<ExperimentPoint> points, int first) {
        List<ExperimentPoint> byCost = new ArrayList<>(points);
        double[] cost = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            cost[i] = cost(workload, points.get(i));
        }
        // points.get(i).index() == i: the plan is in run order
        byCost.sort(Comparator.comparingDouble((ExperimentPoint p) -> -cost[p.index()])
                .thenComparingInt(ExperimentPoint::index));
        double[] load = new double[count];
        boolean[] mine = new boolean[points.size()];
        int start = Math.floorMod(first, count);
        for (ExperimentPoint p : byCost) {
            int least = start;
            for (int k = 1; k < count; k++) {
                int s = (start + k) % count;
                if (load[s] < load[least]) {
                    least = s;
                }
            }
            load[least] += cost[p.index()];
            mine[p.index()] = least == index - 1;
        }
        List<ExperimentPoint> out = new ArrayList<>();
        for (ExperimentPoint p : points) {
            if (mine[p.index()]) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The estimated cost of a run, in no unit: processes × timed iterations × pages per message
     * (4 KiB pages of {@code size_B}, at least one) × a factor for a searched parameter. A
     * parameter the workload lacks counts as 1; processes are the simulation's ranks, or the
     * application's {@code processes} where several share a rank's endpoint. A search runs
     * best-first and stops hopeless candidates early, so it costs about {@code 1 + candidates/16}
     * plain runs (measured on aa.fig7a at full size: AM-Onload's search of 31 onload counts took
     * 45 CPU s where AM took 15). It only has to order runs roughly: the simulated events grow
     * with each factor, and a run's rows do not depend on it. An application that moves a
     * fixed volume ({@code data_MiB}: a sort) costs at least 64 per 4 KiB page of it (measured at
     * full size: a 1 GiB sort point took 50 CPU s, about what 1.5 × 10^7 process-iterations of the
     * hashtable take).
     */
    public static double cost(Workload workload, ExperimentPoint p) {
        Map<String, Object> params = workload.resolve(p.workloadValues());
        double c = Footprint.processes(workload, params);
        if (params.get(StandardParameters.ITERATIONS) instanceof Number n) {
            c *= Math.max(1, n.doubleValue());
        }
        if (params.get(StandardParameters.SIZE) instanceof Number n) {
            c *= Math.max(1, Math.ceil(n.doubleValue() / 4096));
        }
        SearchedParameter searched = workload.search(params);
        if (searched != null) {
            c *= 1 + searched.candidates().size() / 16.0;
        }
        c = Math.max(c, 64.0 * Footprint.dataBytes(params) / 4096);
        return c;
    }
}
