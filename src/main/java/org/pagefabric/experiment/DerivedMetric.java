package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A metric computed from several rows of an experiment, for the comparison with the paper only:
 * the papers state some results relative to another series or another x ("Firehose outperforms
 * the best Rendezvous by ...", "Cannon makes [...] more moves than Bitonic sort"). Values are
 * computed from the means of {@code metric} per (series, x), where series and x are the plot's
 * columns. Three forms (see {@code docs/SPEC-FORMAT.md}):
 *
 * <ul>
 *   <li>{@code over: [S, ...]}: at each x, {@code series}' value divided by the lowest (or, with
 *       {@code pick: max}, highest) of the {@code over} series' values at that x;
 *   <li>{@code over_x: X}: at each other x, {@code series}' value divided by its own value at X;
 *   <li>{@code over: [S]} with {@code at_crossing: M}: {@code series}' value at the first x, in
 *       ascending order, where its metric M rises above S's; one value, at that x.
 * </ul>
 * {@code x_max} keeps only x values up to it (a statement limited to a range of the plot).
 * {@code as} states a ratio r the way the paper does: {@code ratio} (r, the default),
 * {@code pct_change} (100 (r - 1), "an improvement of N %") or {@code pct_loss} (100 (1 - r),
 * "a degradation of N %").
 *
 * @param name       the derived metric's name, as references use it
 * @param metric     the row metric it is computed from
 * @param series     the series whose value is the numerator (or is reported)
 * @param over       the series of the denominator, or of the crossing; empty with {@code overX}
 * @param overX      the x of the denominator, or {@code null}
 * @param pickMax    whether the denominator is the highest of the {@code over} series, not the lowest
 * @param xMax       the largest x considered, or {@code null} for all
 * @param atCrossing the metric whose crossing selects the x, or {@code null}
 * @param form       how a ratio is stated; {@link Form#RATIO} for a value at a crossing
 */
public record DerivedMetric(String name, String metric, String series, List<String> over, Object overX,
        boolean pickMax, Double xMax, String atCrossing, Form form) {
    /** How a ratio r of two means is reported. */
    public enum Form implements SpecName {
        /** r itself. */
        RATIO,
        /** 100 (r - 1): the percentage by which the series exceeds the denominator. */
        PCT_CHANGE,
        /** 100 (1 - r): the percentage by which the series falls short of the denominator. */
        PCT_LOSS;

        double apply(double ratio) {
            return switch (this) {
                case RATIO -> ratio;
                case PCT_CHANGE -> 100 * (ratio - 1);
                case PCT_LOSS -> 100 * (1 - ratio);
            };
        }
    }

    /** Copies the list. */
    public DerivedMetric {
        over = List.copyOf(over);
    }

    /**
     * The values of every derived metric of {@code spec} over {@code rows}: one map per value
     * with {@code series}, {@code x}, {@code metric} (the derived name) and {@code value}.
     */
    public static List<Map<String, Object>> compute(ExperimentSpec spec, List<Map<String, Object>> rows) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (spec.plot() == null) {
            return out;
        }
        for (DerivedMetric d : spec.derived()) {
            d.computeInto(spec.plot(), rows, out);
        }
        return out;
    }

    private void computeInto(ExperimentSpec.Plot plot, List<Map<String, Object>> rows, List<Map<String, Object>> out) {
        List<Object> xs = xValues(plot, rows);
        if (atCrossing != null) {
            crossingInto(plot, rows, xs, out);
            return;
        }
        for (Object x : xs) {
            if (overX != null && ReferenceComparison.same(x, overX)) {
                continue;
            }
            Double num = mean(plot, rows, series, x, metric);
            Double den = overX != null ? mean(plot, rows, series, overX, metric) : pick(plot, rows, x);
            if (num != null && den != null && den != 0) {
                add(out, x, form.apply(num / den));
            }
        }
    }

    /**
     * The series' value where its crossing metric rises above the other series': at the first x
     * past the crossing, interpolated linearly back to the crossing itself when the x before it
     * was measured too. A grid does not hold the x where two curves cross, and the value there
     * (the share of puts that unpin where Firehose's latency meets no-unpin's, say) is not the
     * value at the next grid point, where the crossing metric has gone on rising; both move
     * together between two close points, so the crossing's fraction of the interval applies to
     * the value too.
     */
    private void crossingInto(ExperimentSpec.Plot plot, List<Map<String, Object>> rows, List<Object> xs,
            List<Map<String, Object>> out) {
        Double gapBefore = null;
        Double valueBefore = null;
        for (Object x : xs) {
            Double mine = mean(plot, rows, series, x, atCrossing);
            Double theirs = mean(plot, rows, over.get(0), x, atCrossing);
            if (mine == null || theirs == null) {
                gapBefore = null;
                continue;
            }
            Double value = mean(plot, rows, series, x, metric);
            double gap = mine - theirs;
            if (gap > 0) {
                if (gapBefore == null || valueBefore == null || value == null) {
                    add(out, x, value);
                } else {
                    double t = -gapBefore / (gap - gapBefore);
                    add(out, x, valueBefore + t * (value - valueBefore));
                }
                return;
            }
            gapBefore = gap;
            valueBefore = value;
        }
    }

    private Double pick(ExperimentSpec.Plot plot, List<Map<String, Object>> rows, Object x) {
        Double best = null;
        for (String s : over) {
            Double v = mean(plot, rows, s, x, metric);
            if (v != null && (best == null || (pickMax ? v > best : v < best))) {
                best = v;
            }
        }
        return best;
    }

    private void add(List<Map<String, Object>> out, Object x, Double value) {
        if (value == null) {
            return;
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("series", series);
        r.put("x", x);
        r.put("metric", name);
        r.put("value", Math.round(value * 1e6) / 1e6);
        out.add(r);
    }

    /** The distinct x values of the rows, ascending when numeric, else in order of appearance, up to x_max. */
    private List<Object> xValues(ExperimentSpec.Plot plot, List<Map<String, Object>> rows) {
        List<Object> xs = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            Object x = r.get(plot.x());
            if (x != null && xs.stream().noneMatch(o -> ReferenceComparison.same(o, x))
                    && (xMax == null || !(x instanceof Number n) || n.doubleValue() <= xMax)) {
                xs.add(x);
            }
        }
        if (xs.stream().allMatch(o -> o instanceof Number)) {
            xs.sort((a, b) -> Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue()));
        }
        return xs;
    }

    /** The mean of {@code m} over the rows of series {@code s} at {@code x}, or {@code null}. */
    private static Double mean(ExperimentSpec.Plot plot, List<Map<String, Object>> rows, String s, Object x, String m) {
        double sum = 0;
        int n = 0;
        for (Map<String, Object> r : rows) {
            if (ReferenceComparison.sameSeries(plot.seriesOf(r), s) && ReferenceComparison.same(r.get(plot.x()), x)
                    && r.get(m) instanceof Number v) {
                sum += v.doubleValue();
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }
}
