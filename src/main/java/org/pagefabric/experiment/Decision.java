package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Which registration policy to choose at one x of a comparison: policies ranked by the main
 * metric (ties share a rank and are ordered by pinned memory, then name), the Pareto front of
 * main metric against pinned memory, and one recommendation with its reason.
 *
 * <p>Only policies that ran and whose data verified are candidates: a policy that corrupts data
 * or fails is no choice at any speed, and the caller lists it apart.
 *
 * <pre>{@code
 * Decision d = Decision.of("latency_us", false, List.of(
 *         new Decision.Candidate("pin-all", 4.442, 0.25, null),
 *         new Decision.Candidate("odp-explicit", 4.442, 0.0, null)));
 * d.recommendation(); // odp-explicit: ties the best latency (4.442 us) with 0 MiB pinned ...
 * }</pre>
 */
public final class Decision {
    /**
     * Two metric values tie when they differ by at most this fraction of the larger: the
     * rounding of the printed rows (three decimals) is below it for every value above 1.
     */
    static final double TIE = 5e-4;
    /** How much worse than the best a policy may be and still be recommended for pinning less. */
    static final double NEAR = 0.01;
    /** The suffix of a rate's column ({@code inserts_per_s}): the unit is per second, the label what is counted. */
    private static final String PER_SECOND = "_per_s";

    /**
     * One policy's aggregated result at one x.
     *
     * @param policy    the policy's name
     * @param metric    the main metric (mean over repetitions), or {@code null} if no row had it
     * @param pinnedMiB pinned memory (peak where the workload reports it), or {@code null}
     * @param cpuUs     CPU time of the registration path, or {@code null} if the workload does not report it
     */
    public record Candidate(String policy, Double metric, Double pinnedMiB, Double cpuUs) {
    }

    /**
     * A candidate's place.
     *
     * @param candidate the candidate
     * @param rank      1 for the best; tied candidates share it (1, 1, 3)
     * @param pareto    no other candidate is at least as good in both metric and pinned memory
     *                  and better in one
     */
    public record Place(Candidate candidate, int rank, boolean pareto) {
    }

    private final String metric;
    private final boolean higherIsBetter;
    private final List<Place> ranking;

    private Decision(String metric, boolean higherIsBetter, List<Place> ranking) {
        this.metric = metric;
        this.higherIsBetter = higherIsBetter;
        this.ranking = ranking;
    }

    /**
     * Ranks the candidates of one x.
     *
     * @param metric         the main metric's column, e.g. {@code latency_us}
     * @param higherIsBetter whether a larger value is better (bandwidth) or a smaller (latency)
     * @param candidates     the policies that ran and verified, in any order
     */
    public static Decision of(String metric, boolean higherIsBetter, List<Candidate> candidates) {
        Comparator<Candidate> byMetric = (a, b) -> {
            if (ties(a.metric(), b.metric())) {
                return 0;
            }
            if (a.metric() == null || b.metric() == null) {
                return a.metric() == null ? 1 : -1;
            }
            int c = Double.compare(a.metric(), b.metric());
            return higherIsBetter ? -c : c;
        };
        List<Candidate> sorted = new ArrayList<>(candidates);
        // By metric alone first, so that the tie groups are runs; within a run, pinned then name.
        sorted.sort(byMetric.thenComparing(Candidate::policy));
        List<List<Candidate>> groups = new ArrayList<>();
        for (Candidate c : sorted) {
            List<Candidate> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            // compared with the group's first member, so a chain of near values cannot drift into one tie
            if (last != null && ties(last.get(0).metric(), c.metric())) {
                last.add(c);
            } else {
                groups.add(new ArrayList<>(List.of(c)));
            }
        }
        List<Place> places = new ArrayList<>();
        int rank = 1;
        for (List<Candidate> g : groups) {
            g.sort(Comparator.comparingDouble(Decision::pinnedOrInfinity).thenComparing(Candidate::policy));
            for (Candidate c : g) {
                places.add(new Place(c, rank, pareto(c, candidates, higherIsBetter)));
            }
            rank += g.size();
        }
        return new Decision(metric, higherIsBetter, List.copyOf(places));
    }

    /** The candidates best first, with rank and Pareto mark. */
    public List<Place> ranking() {
        return ranking;
    }

    /**
     * The policy to choose and why, e.g. {@code "odp-explicit: pin-all's latency within 1 % with
     * 0 MiB pinned instead of 4 MiB"}; {@code null} without candidates with a metric.
     *
     * <p>The rule: of the policies within {@value #NEAR} (as a fraction) of the best value,
     * the one that pins least; among equals the better metric, then the ranking's order.
     */
    public String recommendation() {
        if (ranking.isEmpty() || ranking.get(0).candidate().metric() == null) {
            return null;
        }
        Candidate best = ranking.get(0).candidate();
        Candidate choice = best;
        for (Place p : ranking) {
            Candidate c = p.candidate();
            if (c.metric() != null && near(c.metric(), best.metric())
                    && pinnedOrInfinity(c) < pinnedOrInfinity(choice)) {
                choice = c;
            }
        }
        String what = label(metric);
        String value = number(choice.metric()) + unit(metric);
        String pinned = choice.pinnedMiB() == null ? "" : " with " + number(choice.pinnedMiB()) + " MiB pinned";
        List<String> tied = new ArrayList<>();
        for (Place p : ranking) {
            if (p.rank() == 1 && p.candidate() != choice) {
                tied.add(p.candidate().policy());
            }
        }
        if (choice == best && tied.isEmpty()) {
            return choice.policy() + ": the best " + what + " (" + value + ")" + pinned;
        }
        if (ties(choice.metric(), best.metric())) {
            boolean least = choice.pinnedMiB() != null;
            for (Place p : ranking) {
                if (p.rank() == 1 && p.candidate() != choice && pinnedOrInfinity(p.candidate()) <= choice.pinnedMiB()) {
                    least = false;
                }
            }
            return choice.policy() + ": ties the best " + what + " (" + value + ", as " + names(tied) + ")" + pinned
                    + (least ? ", the least among them" : "");
        }
        double off = Math.abs(choice.metric() - best.metric()) / Math.abs(best.metric()) * 100;
        return choice.policy() + ": " + best.policy() + "'s " + what + " within " + number(Math.max(off, 0.001))
                + " % (" + value + ")" + pinned + (best.pinnedMiB() == null ? ""
                : " instead of " + number(best.pinnedMiB()) + " MiB");
    }

    /** Whether {@code c} is on the front: nothing else is at least as good in both and better in one. */
    private static boolean pareto(Candidate c, List<Candidate> all, boolean higherIsBetter) {
        if (c.metric() == null) {
            return false;
        }
        for (Candidate o : all) {
            if (o == c || o.metric() == null) {
                continue;
            }
            boolean metricAsGood = ties(o.metric(), c.metric()) || better(o.metric(), c.metric(), higherIsBetter);
            boolean metricBetter = !ties(o.metric(), c.metric()) && better(o.metric(), c.metric(), higherIsBetter);
            boolean pinAsGood = pinnedOrInfinity(o) <= pinnedOrInfinity(c);
            boolean pinBetter = pinnedOrInfinity(o) < pinnedOrInfinity(c);
            if (metricAsGood && pinAsGood && (metricBetter || pinBetter)) {
                return false;
            }
        }
        return true;
    }

    private static boolean better(double a, double b, boolean higherIsBetter) {
        return higherIsBetter ? a > b : a < b;
    }

    /** Equal within {@link #TIE}; two missing values tie too. */
    static boolean ties(Double a, Double b) {
        if (a == null || b == null) {
            return a == null && b == null;
        }
        return Math.abs(a - b) <= TIE * Math.max(Math.abs(a), Math.abs(b));
    }

    private static boolean near(double value, double best) {
        return Math.abs(value - best) <= NEAR * Math.abs(best);
    }

    private static double pinnedOrInfinity(Candidate c) {
        // a policy that does not say what it pins is never preferred for pinning less
        return c.pinnedMiB() == null ? Double.POSITIVE_INFINITY : c.pinnedMiB();
    }

    /** {@code latency_us} -> {@code latency}: the metric's name without its unit. */
    static String label(String metric) {
        if (metric.endsWith(PER_SECOND)) {
            return metric.substring(0, metric.length() - PER_SECOND.length()).replace('_', ' ');
        }
        int u = metric.lastIndexOf('_');
        return u > 0 && !unit(metric).isEmpty() ? metric.substring(0, u).replace('_', ' ') : metric.replace('_', ' ');
    }

    /** {@code latency_us} -> {@code " us"}; empty when the column names no unit. */
    static String unit(String metric) {
        if (metric.endsWith(PER_SECOND)) {
            return "/s";
        }
        int u = metric.lastIndexOf('_');
        String suffix = u > 0 ? metric.substring(u + 1) : "";
        return switch (suffix) {
            case "us", "ms", "ns", "s", "B", "MiB", "J", "W" -> " " + suffix;
            case "MBps" -> " MB/s";
            case "pct" -> " %";
            default -> "";
        };
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        String s = String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : "%.3f", v);
        return s.contains(".") && !s.contains("e") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    private static String names(List<String> policies) {
        return policies.size() <= 3 ? String.join(", ", policies)
                : String.join(", ", policies.subList(0, 3)) + " and " + (policies.size() - 3) + " more";
    }
}
