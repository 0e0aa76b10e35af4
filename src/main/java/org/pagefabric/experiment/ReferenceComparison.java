package org.pagefabric.experiment;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.AxisKind;
import org.pagefabric.experiment.ExperimentSpec.Reference;

/**
 * Checks what the paper published against what we measured, for reading only (the model never
 * sees the paper's numbers). One row per reference entry, in the spec's order:
 *
 * <ul>
 *   <li>{@code ours} is the mean of the metric over the rows whose plot series equals the
 *       reference's series and whose plot x equals its x; for {@code x: all}, the value at the x
 *       farthest from the paper's. A reference to a {@link DerivedMetric} reads that metric's values.
 *   <li>{@code tolerance} and {@code verdict} follow the reference's {@link Claim}: a ratio within
 *       [low, high], a bound, or a trend ({@code shape}).
 *   <li>A row is {@link Verdict#NOT_COMPARABLE} when the run differs from the paper's set-up
 *       ({@code --quick} or {@code --set} changed the repetitions or a grid axis other than the
 *       plot's x and series; the reference's x did not run; a claim over every x, a trend over x
 *       or a value at a crossing of curves, and not every x ran; a series or x it needs is one a
 *       smaller grid left out) or when the reference names no x although the plot has several:
 *       such a number would be compared with something the paper did not measure. A quick run
 *       whose grid keeps the paper's set-up at some x is compared there, and only there.
 *   <li>{@code role} is {@code calibration} when a profile the experiment runs on has a parameter
 *       fitted on this reference ({@code fitted: ID#ref} in its source), else {@code validation}.
 * </ul>
 */
public final class ReferenceComparison {
    /** What the paper column says for a number the seed withholds. */
    public static final String WITHHELD = "[withheld]";

    /**
     * Relative change a monotone trend tolerates against its direction between two neighbouring x
     * (run-to-run noise of a simulated measurement), and the least overall change it needs.
     */
    static final double TREND_NOISE = 0.02;

    /** The columns of a comparison row, in order. */
    public static final List<String> COLUMNS = List.of("series", "x", "metric", "paper", "tolerance", "ours", "ratio",
            "verdict", "role", "note", "where");

    private ReferenceComparison() {
    }

    /** The comparison of a run against its own spec's references (no quick or {@code --set} check). */
    public static List<Map<String, Object>> compare(ExperimentSpec spec, ExperimentResult result) {
        return compare(spec, result, result.spec());
    }

    /**
     * The comparison rows, in the spec's reference order; blank cells are {@code null}.
     *
     * @param declared the spec as written (before {@code --quick} and {@code --set}), the set-up the
     *                 paper's numbers belong to
     * @param result   the run
     * @param run      the spec whose references, series and derived metrics are compared (the
     *                 declared one, or one with more policies as {@code compare} runs it)
     */
    public static List<Map<String, Object>> compare(ExperimentSpec declared, ExperimentResult result,
            ExperimentSpec run) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Map<String, Object>> derived = DerivedMetric.compute(run, result.rows());
        Set<String> calibrated = calibrationTargets(result.spec());
        String setUpDiffers = setUpDifference(declared, result.spec());
        List<Object> xsRun = xValues(result.spec());
        List<Object> xsDeclared = xValues(declared);
        boolean reduced = !sameGrid(declared, result.spec());
        for (Reference ref : run.reference()) {
            Reference mapped = mapSeries(run, ref);
            boolean isDerived = run.derived().stream().anyMatch(d -> d.name().equals(ref.metric()));
            Values values = isDerived ? derivedValues(derived, mapped) : rowValues(run, result.rows(), mapped);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("series", ref.series());
            row.put("x", ref.x());
            row.put("metric", ref.metric());
            row.put("paper", ref.withheld() ? WITHHELD : ref.claim() instanceof Claim.Trend ? "(" + ref.claim()
                    .describe(null) + ")" : ref.value());
            row.put("tolerance", ref.withheld() ? null : ref.claim().describe(ref.value()));
            Check check = check(mapped, values, run);
            row.put("ours", check.ours());
            row.put("ratio", check.ratio());
            String note = null;
            Verdict verdict;
            if (ref.withheld()) {
                verdict = Verdict.WITHHELD;
            } else if (setUpDiffers != null) {
                verdict = Verdict.NOT_COMPARABLE;
                note = setUpDiffers;
            } else if (ref.x() == null && xsDeclared.size() > 1 && !overX(ref)
                    && !(isDerived && values.series(mapped.series()).size() <= 1)) {
                verdict = Verdict.NOT_COMPARABLE;
                note = "the reference names no x, and the plot has " + xsDeclared.size();
            } else if (ref.x() != null && !ref.allX() && !xsRun.isEmpty() && xsRun.stream().noneMatch(v -> same(v,
                    ref.x()))) {
                verdict = Verdict.NOT_COMPARABLE;
                note = run.plot().x() + " = " + ref.x() + " did not run";
            } else if ((ref.allX() || ref.x() == null && overX(ref) || spansX(run, ref)) && !allRan(xsRun, xsDeclared)) {
                verdict = Verdict.NOT_COMPARABLE;
                note = "not every " + run.plot().x() + " ran";
            } else if (check.ours() == null && reduced) {
                // a series or an x the paper has but this smaller grid left out: nothing to compare, not a miss
                verdict = Verdict.NOT_COMPARABLE;
                note = check.note() + ", which this run's grid leaves out";
            } else {
                verdict = check.holds() ? Verdict.WITHIN : Verdict.OUTSIDE;
                note = check.note();
            }
            if (verdict == Verdict.NOT_COMPARABLE) {
                row.put("ratio", null);
            }
            row.put("verdict", verdict.text());
            row.put("role", ref.id() != null && calibrated.contains(declared.id() + "#" + ref.id()) ? "calibration"
                    : "validation");
            if (ref.claim() instanceof Claim.Ratio r && r.reason() != null) {
                note = note == null ? "tolerance: " + r.reason() : note + "; tolerance: " + r.reason();
            }
            row.put("note", note);
            row.put("where", ref.where());
            out.add(row);
        }
        return out;
    }

    /**
     * How many published numbers a run of the paper's own set-up compares (not withheld, and
     * comparable there): what a {@code --quick} or {@code --set} run leaves for a full run. Read
     * from the declared spec, with this run's rows standing in for the full run's values: those
     * decide within or outside, and no more than whether a derived metric without an x has one value.
     *
     * @param declared the spec as written
     * @param result   the run, of a smaller or changed set-up
     */
    public static int comparedInFullRun(ExperimentSpec declared, ExperimentResult result) {
        ExperimentResult asDeclared = new ExperimentResult(declared, false, Map.of(), result.planned(), result.rows(),
                result.complete());
        return VerdictTally.of(compare(declared, asDeclared, declared)).comparable();
    }

    /** Whether every x of the paper's set-up ran. */
    private static boolean allRan(List<Object> xsRun, List<Object> xsDeclared) {
        return xsDeclared.stream().allMatch(d -> xsRun.stream().anyMatch(r -> same(r, d)));
    }

    /** Whether the reference's derived metric depends on which x ran (the x where two curves cross). */
    private static boolean spansX(ExperimentSpec spec, Reference ref) {
        return spec.derived().stream().anyMatch(d -> d.name().equals(ref.metric()) && d.atCrossing() != null);
    }

    /** Whether two specs run the same grid axes with the same values. */
    private static boolean sameGrid(ExperimentSpec a, ExperimentSpec b) {
        if (a.grid().size() != b.grid().size()) {
            return false;
        }
        for (Axis x : a.grid()) {
            Axis y = b.axis(x.key());
            if (y == null || !sameValues(x, y)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the claim is a trend over x, which takes no single x. */
    private static boolean overX(Reference ref) {
        return ref.claim() instanceof Claim.Trend t
                && (t.shape() == Claim.Shape.INCREASING || t.shape() == Claim.Shape.DECREASING);
    }

    /** The reference with the paper's series label replaced by our series (and a ranking's order too). */
    private static Reference mapSeries(ExperimentSpec spec, Reference ref) {
        Map<String, String> labels = spec.seriesLabels();
        Claim claim = ref.claim();
        if (claim instanceof Claim.Trend t && !t.order().isEmpty()) {
            claim = new Claim.Trend(t.shape(), t.order().stream().map(g -> g.stream()
                    .map(s -> labels.getOrDefault(s, s)).toList()).toList(), t.xMin(), t.xMax());
        }
        String series = ref.series() == null ? null : labels.getOrDefault(ref.series(), ref.series());
        return new Reference(ref.id(), series, ref.x(), ref.metric(), ref.value(), ref.where(), claim);
    }

    /** Ours for one reference: the value shown, the ratio, whether the claim holds, and why not. */
    private record Check(Object ours, Double ratio, boolean holds, String note) {
    }

    private static Check check(Reference ref, Values values, ExperimentSpec spec) {
        if (ref.claim() instanceof Claim.Trend t) {
            return trend(ref, t, values, spec);
        }
        Map<Object, Double> at = atX(ref, values.series(ref.series()));
        if (at.isEmpty()) {
            return new Check(null, null, false, "no value: series " + ref.series() + " has no " + ref.metric()
                    + (ref.x() == null || ref.allX() ? "" : " at " + ref.x()));
        }
        if (ref.withheld()) {
            return new Check(round(mean(at.values())), null, false, null);
        }
        double paper = ref.value();
        // The value shown is the mean; with x: all, the one that decides: the highest against an
        // upper bound, the lowest against a lower bound, else the farthest from the paper's.
        double shown = !ref.allX() ? mean(at.values())
                : ref.claim() instanceof Claim.Bound b ? (b.upper() ? max(at.values()) : -max(negated(at.values())))
                : farthest(at.values(), paper);
        Double ratio = paper == 0 ? null : round(shown / paper);
        boolean holds = true;
        String failedAt = null;
        for (Map.Entry<Object, Double> e : at.entrySet()) {
            double v = ref.allX() ? e.getValue() : shown;
            boolean ok = switch (ref.claim()) {
                case Claim.Ratio r -> paper != 0 && r.holds(v / paper);
                case Claim.Bound b -> b.holds(v, paper);
                case Claim.Trend t -> throw new AssertionError(t);
            };
            if (!ok) {
                holds = false;
                failedAt = ref.allX() ? spec.plot().x() + " = " + e.getKey() : null;
                break;
            }
        }
        return new Check(round(shown), ratio, holds, holds || failedAt == null ? null : "outside at " + failedAt);
    }

    private static Check trend(Reference ref, Claim.Trend t, Values values, ExperimentSpec spec) {
        String x = spec.plot().x();
        switch (t.shape()) {
            case INCREASING, DECREASING -> {
                Map<Object, Double> s = new TreeMap<>(ReferenceComparison::compareX);
                for (Map.Entry<Object, Double> e : values.series(ref.series()).entrySet()) {
                    double d = numeric(e.getKey());
                    if ((t.xMin() == null || d >= t.xMin()) && (t.xMax() == null || d <= t.xMax())) {
                        s.put(e.getKey(), e.getValue());
                    }
                }
                if (s.size() < 2) {
                    return new Check(null, null, false, "a trend needs the series at two x at least; " + ref.series()
                            + " has " + s.size());
                }
                List<Double> v = new ArrayList<>(s.values());
                List<Object> xs = new ArrayList<>(s.keySet());
                double sign = t.shape() == Claim.Shape.INCREASING ? 1 : -1;
                String ours = fmt(v.getFirst()) + " .. " + fmt(v.getLast());
                for (int i = 1; i < v.size(); i++) {
                    if (sign * (v.get(i) - v.get(i - 1)) < -TREND_NOISE * Math.abs(v.get(i - 1))) {
                        return new Check(ours, null, false, "not " + t.shape().name().toLowerCase(java.util.Locale.ROOT)
                                + " from " + x + " = " + xs.get(i - 1) + " to " + xs.get(i) + " (" + fmt(v.get(i - 1))
                                + " -> " + fmt(v.get(i)) + ")");
                    }
                }
                boolean moved = sign * (v.getLast() - v.getFirst()) > TREND_NOISE * Math.abs(v.getFirst());
                return new Check(ours, null, moved, moved ? null : "changes by less than "
                        + Math.round(TREND_NOISE * 100) + " % over the range");
            }
            case POSITIVE, NEGATIVE -> {
                Map<Object, Double> at = atX(ref, values.series(ref.series()));
                if (at.isEmpty()) {
                    return new Check(null, null, false, "no value: series " + ref.series() + " has no " + ref.metric());
                }
                double sign = t.shape() == Claim.Shape.POSITIVE ? 1 : -1;
                double worst = at.values().stream().mapToDouble(d -> sign * d).min().orElseThrow() * sign;
                boolean holds = sign * worst > 0;
                return new Check(round(worst), null, holds, null);
            }
            case RANKED -> {
                List<Object> xs = ref.allX() || ref.x() == null ? values.xs() : List.of(ref.x());
                StringBuilder ours = new StringBuilder();
                for (Object at : xs) {
                    List<Double> lows = new ArrayList<>();
                    List<Double> highs = new ArrayList<>();
                    for (List<String> group : t.order()) {
                        double lo = Double.POSITIVE_INFINITY;
                        double hi = Double.NEGATIVE_INFINITY;
                        for (String s : group) {
                            Double v = valueAt(values.series(s), at);
                            if (v == null) {
                                return new Check(null, null, false, "no value: series " + s + " has no " + ref.metric()
                                        + " at " + x + " = " + at);
                            }
                            lo = Math.min(lo, v);
                            hi = Math.max(hi, v);
                        }
                        lows.add(lo);
                        highs.add(hi);
                    }
                    ours.setLength(0);
                    for (int g = 0; g < t.order().size(); g++) {
                        ours.append(g == 0 ? "" : " | ").append(fmt(lows.get(g)))
                                .append(lows.get(g).equals(highs.get(g)) ? "" : ".." + fmt(highs.get(g)));
                    }
                    for (int g = 1; g < t.order().size(); g++) {
                        if (!(lows.get(g - 1) > highs.get(g))) {
                            return new Check(ours.toString(), null, false, "at " + x + " = " + at + ": "
                                    + String.join(", ", t.order().get(g)) + " not below "
                                    + String.join(", ", t.order().get(g - 1)));
                        }
                    }
                }
                return new Check(ours.toString(), null, !xs.isEmpty(), xs.isEmpty() ? "no x ran" : null);
            }
            default -> throw new AssertionError(t.shape());
        }
    }

    /** The values of a series at the reference's x (all of them for {@code x: all} or no x). */
    private static Map<Object, Double> atX(Reference ref, Map<Object, Double> series) {
        if (ref.x() == null || ref.allX()) {
            return series;
        }
        Map<Object, Double> out = new LinkedHashMap<>();
        for (Map.Entry<Object, Double> e : series.entrySet()) {
            if (same(e.getKey(), ref.x())) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static Double valueAt(Map<Object, Double> series, Object x) {
        for (Map.Entry<Object, Double> e : series.entrySet()) {
            if (same(e.getKey(), x)) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * Means per (series, x) of one metric, series as our names. {@code null} x stands for a value
     * that has none (a derived value at a crossing is reported at its x, so this is rare).
     */
    private record Values(Map<String, Map<Object, Double>> bySeries, List<Object> xs) {
        Map<Object, Double> series(String name) {
            if (name == null) {
                return Map.of();
            }
            for (Map.Entry<String, Map<Object, Double>> e : bySeries.entrySet()) {
                if (sameSeries(e.getKey(), name)) {
                    return e.getValue();
                }
            }
            return Map.of();
        }

    }

    private static Values rowValues(ExperimentSpec spec, List<Map<String, Object>> rows, Reference ref) {
        Map<String, Map<Object, double[]>> acc = new LinkedHashMap<>();
        Set<Object> xs = new LinkedHashSet<>();
        for (Map<String, Object> r : rows) {
            if (r.get(ref.metric()) instanceof Number v && Double.isFinite(v.doubleValue())) {
                Object x = r.get(spec.plot().x());
                xs.add(x);
                double[] sn = acc.computeIfAbsent(String.valueOf(spec.plot().seriesOf(r)), k -> new LinkedHashMap<>())
                        .computeIfAbsent(x, k -> new double[2]);
                sn[0] += v.doubleValue();
                sn[1]++;
            }
        }
        Map<String, Map<Object, Double>> out = new LinkedHashMap<>();
        acc.forEach((s, m) -> {
            Map<Object, Double> means = new LinkedHashMap<>();
            m.forEach((x, sn) -> means.put(x, sn[0] / sn[1]));
            out.put(s, means);
        });
        return new Values(out, new ArrayList<>(xs));
    }

    private static Values derivedValues(List<Map<String, Object>> derived, Reference ref) {
        Map<String, Map<Object, Double>> out = new LinkedHashMap<>();
        Set<Object> xs = new LinkedHashSet<>();
        for (Map<String, Object> d : derived) {
            if (d.get("metric").equals(ref.metric())) {
                Object x = d.get("x");
                xs.add(x);
                out.computeIfAbsent(String.valueOf(d.get("series")), k -> new LinkedHashMap<>())
                        .put(x, ((Number) d.get("value")).doubleValue());
            }
        }
        return new Values(out, new ArrayList<>(xs));
    }

    /**
     * Why the run's set-up is not the paper's, or {@code null} when it is: an axis other than the
     * plot's x and series whose values differ from the spec as written, or one added by {@code --set}.
     */
    static String setUpDifference(ExperimentSpec declared, ExperimentSpec run) {
        if (declared.plot() == null) {
            return null;
        }
        // fewer repetitions average fewer seeds: another estimate than the one the tolerances were set on
        if (run.repetitions() != declared.repetitions()) {
            return "repetitions = " + run.repetitions() + " where the paper's set-up has " + declared.repetitions();
        }
        Set<String> free = new java.util.HashSet<>(declared.plot().seriesColumns());
        free.add(declared.plot().x());
        for (Axis a : run.grid()) {
            if (free.contains(a.key()) || free.contains(a.column())) {
                continue;
            }
            Axis d = declared.axis(a.key());
            if (d == null) {
                return a.key() + " is set (" + a.file() + ") but the paper's set-up has no such axis";
            }
            if (!sameValues(d, a)) {
                return a.key() + " = " + shortList(a.values()) + " where the paper's set-up has "
                        + shortList(d.values());
            }
        }
        return null;
    }

    private static boolean sameValues(Axis a, Axis b) {
        if (a.values().size() != b.values().size()) {
            return false;
        }
        for (int i = 0; i < a.values().size(); i++) {
            if (!same(a.values().get(i), b.values().get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String shortList(List<Object> values) {
        List<String> s = values.stream().map(String::valueOf).toList();
        return s.size() == 1 ? s.getFirst() : s.size() <= 4 ? s.toString() : "[" + s.getFirst() + " .. "
                + s.getLast() + "] (" + s.size() + " values)";
    }

    /** The values the plot's x axis takes in a spec's grid, or an empty list when x is not a grid axis. */
    private static List<Object> xValues(ExperimentSpec spec) {
        if (spec.plot() == null) {
            return List.of();
        }
        Axis a = spec.axis(spec.plot().x());
        if (a == null) {
            return List.of();
        }
        if (a.kind() == AxisKind.PROFILE_NAME) {
            return a.values().stream().map(v -> (Object) ProfileRegistry.resolve(String.valueOf(v)).name()).toList();
        }
        return a.values();
    }

    /** Every {@code experiment#reference} a parameter of the profiles this spec runs on is fitted on. */
    static Set<String> calibrationTargets(ExperimentSpec spec) {
        Set<String> out = new LinkedHashSet<>();
        List<Profile> profiles = new ArrayList<>();
        if (spec.profile() != null) {
            profiles.add(spec.profile());
        }
        Axis names = spec.axis(ExperimentSpec.PROFILE_KEY);
        if (names != null && names.kind() == AxisKind.PROFILE_NAME) {
            for (Object v : names.values()) {
                profiles.add(ProfileRegistry.resolve(String.valueOf(v)));
            }
        }
        for (Profile p : profiles) {
            for (ResolvedSetting s : p.settings()) {
                if (s.citation() != null && s.citation().calibrationTarget() != null) {
                    out.add(s.citation().calibrationTarget());
                }
            }
        }
        return out;
    }

    private static double farthest(Iterable<Double> values, double paper) {
        double best = Double.NaN;
        double dist = -1;
        for (double v : values) {
            double d = paper != 0 && v / paper > 0 ? Math.abs(Math.log(v / paper)) : Math.abs(v - paper);
            if (d > dist) {
                dist = d;
                best = v;
            }
        }
        return best;
    }

    private static double max(Iterable<Double> values) {
        double m = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    private static List<Double> negated(Iterable<Double> values) {
        List<Double> out = new ArrayList<>();
        values.forEach(v -> out.add(-v));
        return out;
    }

    private static double mean(Iterable<Double> values) {
        double sum = 0;
        int n = 0;
        for (double v : values) {
            sum += v;
            n++;
        }
        return sum / n;
    }

    private static int compareX(Object a, Object b) {
        return Double.compare(numeric(a), numeric(b));
    }

    private static double numeric(Object x) {
        BigDecimal b = number(x);
        return b == null ? Double.NaN : b.doubleValue();
    }

    private static String fmt(double v) {
        return Math.abs(v) >= 1e5 || Math.abs(v) < 1e-2 && v != 0 ? String.format(java.util.Locale.ROOT, "%.3g", v)
                : Claim.trim(round(v));
    }

    /** A series as the paper labels it ("Firehose") matches our name for it ("firehose"). */
    static boolean sameSeries(Object ours, Object theirs) {
        return same(ours, theirs) || ours != null && theirs != null
                && String.valueOf(ours).equalsIgnoreCase(String.valueOf(theirs));
    }

    /** Numbers compare by value (8 equals 8.0); anything else by its text. */
    static boolean same(Object ours, Object theirs) {
        if (ours == null || theirs == null) {
            return false;
        }
        BigDecimal a = number(ours);
        BigDecimal b = number(theirs);
        if (a != null && b != null) {
            return a.compareTo(b) == 0;
        }
        return String.valueOf(ours).equals(String.valueOf(theirs));
    }

    private static BigDecimal number(Object o) {
        if (o instanceof Number || o instanceof String) {
            try {
                return new BigDecimal(String.valueOf(o));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }
}
