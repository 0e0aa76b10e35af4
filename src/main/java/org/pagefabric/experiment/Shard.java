package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.pagefabric.workload.Workload;

/**
 * Shard {@code index} of {@code count}: a deterministic share of a sweep's runs, so that
 * {@code count} machines together run every point exactly once. Shares are balanced by each
 * run's estimated CPU seconds ({@link CostModel}) rather than dealt round-robin, because points
 * differ in cost by orders of magnitude (a 1 GiB transfer beside an 8-byte one, 1024 processes
 * beside 2). The runs of all the sweep's experiments are dealt together, largest estimate first,
 * each to the shard with the least estimated work so far: one experiment's lumps are evened out
 * by the others' smaller points, which dealing experiment by experiment cannot do. Ties are
 * broken by a fixed order (equal estimates by experiment position, then run index; equally
 * loaded shards by the lowest number), so the assignment depends only on the sweep's runs and
 * the bundled coefficients, never on the machine or the threads: every shard of a sweep
 * computes the same partition independently.
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
     * This shard's runs of each experiment of a sweep.
     *
     * @param workloads each experiment's workload, whose parameters the estimate reads
     * @param points    each experiment's runs, all of them, in run order
     *                  ({@code points.get(k).get(i).index() == i})
     * @return this shard's runs of each experiment, at the experiment's position, in run order
     *         (possibly none)
     */
    public List<List<ExperimentPoint>> select(List<Workload> workloads, List<List<ExperimentPoint>> points) {
        CostModel model = CostModel.bundled();
        double[][] cost = new double[points.size()][];
        for (int k = 0; k < points.size(); k++) {
            List<ExperimentPoint> runs = points.get(k);
            cost[k] = new double[runs.size()];
            for (int i = 0; i < runs.size(); i++) {
                cost[k][i] = model.cpuSeconds(workloads.get(k), runs.get(i));
            }
        }
        int[][] shard = deal(cost, count);
        List<List<ExperimentPoint>> out = new ArrayList<>();
        for (int k = 0; k < points.size(); k++) {
            List<ExperimentPoint> mine = new ArrayList<>();
            for (int i = 0; i < shard[k].length; i++) {
                if (shard[k][i] == index - 1) {
                    mine.add(points.get(k).get(i));
                }
            }
            out.add(mine);
        }
        return out;
    }

    /** This shard's runs of one experiment alone, in run order: {@link #select(List, List)} of a sweep of one. */
    public List<ExperimentPoint> select(Workload workload, List<ExperimentPoint> points) {
        return select(List.of(workload), List.of(points)).get(0);
    }

    private record Run(int experiment, int index, double cost) {
    }

    /**
     * Deals runs of estimated costs {@code cost[k][i]} (experiment k, run i) over {@code count}
     * shards: largest first (ties by k, then i), each to the least-loaded shard (ties to the
     * lowest). Returns each run's shard, from 0.
     */
    static int[][] deal(double[][] cost, int count) {
        List<Run> runs = new ArrayList<>();
        int[][] shard = new int[cost.length][];
        for (int k = 0; k < cost.length; k++) {
            shard[k] = new int[cost[k].length];
            for (int i = 0; i < cost[k].length; i++) {
                runs.add(new Run(k, i, cost[k][i]));
            }
        }
        runs.sort(Comparator.comparingDouble((Run r) -> -r.cost()).thenComparingInt(Run::experiment)
                .thenComparingInt(Run::index));
        double[] load = new double[count];
        for (Run r : runs) {
            int least = 0;
            for (int s = 1; s < count; s++) {
                if (load[s] < load[least]) {
                    least = s;
                }
            }
            load[least] += r.cost();
            shard[r.experiment()][r.index()] = least;
        }
        return shard;
    }
}
