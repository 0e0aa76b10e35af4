package org.pagefabric.experiment.sensitivity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The band of each candidate's main metric in a comparison of policies (or schemes) over joint
 * samples of the plausible ranges, and whether the ranking at each x holds across them: whether a
 * recommendation survives what no source pins down.
 */
public final class PolicyBands {
    /** The columns of {@link #table()}, after the x column. */
    public static final List<String> COLUMNS = List.of("nominal", "band", "rank_nominal", "ranks_seen");

    private final String candidateColumn;
    private final String xColumn;
    private final String metric;
    private final boolean higherIsBetter;
    // sample (0 = nominal) -> x -> candidate -> [sum, n]
    private final Map<Integer, Map<String, Map<String, double[]>>> values = new TreeMap<>();
    private final Map<String, Object> xs = new LinkedHashMap<>();

    /**
     * @param candidateColumn the row column naming the candidate ({@code policy} or {@code scheme})
     * @param xColumn         the column the comparison ranks at
     * @param metric          the main metric
     * @param higherIsBetter  whether a higher metric ranks first
     */
    public PolicyBands(String candidateColumn, String xColumn, String metric, boolean higherIsBetter) {
        this.candidateColumn = Objects.requireNonNull(candidateColumn, "candidateColumn");
        this.xColumn = Objects.requireNonNull(xColumn, "xColumn");
        this.metric = Objects.requireNonNull(metric, "metric");
        this.higherIsBetter = higherIsBetter;
    }

    /** Adds one candidate's rows of one sample; sample 0 is the nominal run. */
    public void add(int sample, List<Map<String, Object>> rows) {
        for (Map<String, Object> r : rows) {
            // data that did not verify is never ranked, so it has no band either
            if (Boolean.FALSE.equals(r.get("verified"))) {
                continue;
            }
            if (r.get(metric) instanceof Number v && Double.isFinite(v.doubleValue())) {
                Object x = r.get(xColumn);
                String key = String.valueOf(x);
                xs.putIfAbsent(key, x);
                double[] sn = values.computeIfAbsent(sample, k -> new LinkedHashMap<>())
                        .computeIfAbsent(key, k -> new LinkedHashMap<>())
                        .computeIfAbsent(String.valueOf(r.get(candidateColumn)), k -> new double[2]);
                sn[0] += v.doubleValue();
                sn[1]++;
            }
        }
    }

    /** How many samples beside the nominal run have values. */
    public int samples() {
        return (int) values.keySet().stream().filter(k -> k > 0).count();
    }

    /**
     * One row per x and candidate of the nominal run: the metric nominal, its band over every
     * sample, its nominal rank and the ranks it took across the samples.
     */
    public List<Map<String, Object>> table() {
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Map<String, double[]>> nominal = values.getOrDefault(0, Map.of());
        for (Map.Entry<String, Map<String, double[]>> at : nominal.entrySet()) {
            List<String> order = order(at.getValue());
            for (String c : order) {
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                int best = Integer.MAX_VALUE;
                int worst = 0;
                for (Map<String, Map<String, double[]>> sample : values.values()) {
                    Map<String, double[]> here = sample.get(at.getKey());
                    if (here == null || !here.containsKey(c)) {
                        continue;
                    }
                    double v = here.get(c)[0] / here.get(c)[1];
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                    int rank = ranks(here).get(c);
                    best = Math.min(best, rank);
                    worst = Math.max(worst, rank);
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put(xColumn, xs.get(at.getKey()));
                row.put(candidateColumn, c);
                row.put(metric + "_nominal", round(mean(at.getValue().get(c))));
                row.put("band", format(lo) + " .. " + format(hi));
                row.put("rank_nominal", ranks(at.getValue()).get(c));
                row.put("ranks_seen", best == worst ? String.valueOf(best) : best + ".." + worst);
                out.add(row);
            }
        }
        return out;
    }

    /**
     * One line per x: whether the nominal ranking holds in every sample, else in how many the
     * nominal best stays best and which candidate beats it.
     */
    public List<String> rankingLines() {
        List<String> out = new ArrayList<>();
        Map<String, Map<String, double[]>> nominal = values.getOrDefault(0, Map.of());
        int n = samples();
        for (Map.Entry<String, Map<String, double[]>> at : nominal.entrySet()) {
            List<String> order = order(at.getValue());
            Map<String, Integer> ranks = ranks(at.getValue());
            String first = order.getFirst();
            int same = 0;
            int bestKept = 0;
            Map<String, Integer> beaten = new TreeMap<>();
            for (Map.Entry<Integer, Map<String, Map<String, double[]>>> s : values.entrySet()) {
                if (s.getKey() == 0) {
                    continue;
                }
                Map<String, double[]> here = new LinkedHashMap<>(s.getValue().getOrDefault(at.getKey(), Map.of()));
                here.keySet().retainAll(ranks.keySet());
                Map<String, Integer> r = ranks(here);
                if (r.equals(ranks)) {
                    same++;
                }
                if (Integer.valueOf(1).equals(r.get(first))) {
                    bestKept++;
                } else if (!here.isEmpty()) {
                    beaten.merge(order(here).getFirst(), 1, Integer::sum);
                }
            }
            String where = "ranking at " + xColumn + " " + xs.get(at.getKey()) + ": ";
            if (same == n) {
                out.add(where + "holds across the band (the same order in all " + n + " samples)");
            } else {
                StringBuilder b = new StringBuilder(where).append("the order changes in ").append(n - same)
                        .append(" of ").append(n).append(" samples; ").append(order.getFirst())
                        .append(" stays best in ").append(bestKept).append(" of ").append(n);
                beaten.forEach((c, k) -> b.append("; ").append(c).append(" best in ").append(k));
                out.add(b.toString());
            }
        }
        return out;
    }

    /**
     * Each candidate's rank: one more than the candidates strictly better, so values equal to the
     * table's rounding share a rank, as the comparison's ranking has them.
     */
    private Map<String, Integer> ranks(Map<String, double[]> at) {
        Map<String, Integer> out = new TreeMap<>();
        for (Map.Entry<String, double[]> e : at.entrySet()) {
            double v = round(mean(e.getValue()));
            int better = 0;
            for (double[] other : at.values()) {
                double w = round(mean(other));
                if (higherIsBetter ? w > v : w < v) {
                    better++;
                }
            }
            out.put(e.getKey(), better + 1);
        }
        return out;
    }

    /** Candidates best first; equal values by name, so the order is a function of the values. */
    private List<String> order(Map<String, double[]> at) {
        Comparator<Map.Entry<String, double[]>> byValue = Comparator.comparingDouble(e -> mean(e.getValue()));
        if (higherIsBetter) {
            byValue = byValue.reversed();
        }
        return at.entrySet().stream().sorted(byValue.thenComparing(Map.Entry::getKey)).map(Map.Entry::getKey).toList();
    }

    private static double mean(double[] sn) {
        return sn[0] / sn[1];
    }

    private static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    private static String format(double v) {
        if (Math.abs(v) >= 1e5 || Math.abs(v) < 1e-2 && v != 0) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        String s = Double.toString(round(v));
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
