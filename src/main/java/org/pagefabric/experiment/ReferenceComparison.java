package org.pagefabric.experiment;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.experiment.ExperimentSpec.Reference;

/**
 * Puts what the paper published beside what we measured, for reading only (the model never sees
 * the paper's numbers). One row per reference entry: series, x, metric, the paper's value (or
 * {@value #WITHHELD}), ours (the mean over the matching rows: the plot's series column equals
 * the reference's series and the plot's x column equals its x; blank when nothing matches, e.g.
 * a paper series we have no policy for yet), and ours/paper (blank when either is missing or the
 * paper's value is 0). A reference to a {@link DerivedMetric} takes the mean of that metric's
 * values with the reference's series (and x, if given).
 */
public final class ReferenceComparison {
    /** What the paper column says for a number the seed withholds. */
    public static final String WITHHELD = "[withheld]";

    private ReferenceComparison() {
    }

    /**
     * The comparison rows, in the spec's reference order. Columns: {@code series}, {@code x},
     * {@code metric}, {@code paper}, {@code ours}, {@code ratio}, {@code where}; blank cells are
     * {@code null}.
     */
    public static List<Map<String, Object>> compare(ExperimentSpec spec, ExperimentResult result) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Map<String, Object>> derived = DerivedMetric.compute(spec, result.rows());
        for (Reference ref : spec.reference()) {
            Reference mapped = new Reference(spec.seriesLabels().getOrDefault(ref.series(), ref.series()), ref.x(),
                    ref.metric(), ref.value(), ref.where());
            Double ours = spec.derived().stream().anyMatch(d -> d.name().equals(ref.metric()))
                    ? derived(derived, mapped) : ours(spec, result.rows(), mapped);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("series", ref.series());
            row.put("x", ref.x());
            row.put("metric", ref.metric());
            row.put("paper", ref.withheld() ? WITHHELD : ref.value());
            row.put("ours", ours);
            row.put("ratio", ours == null || ref.withheld() || ref.value() == 0 ? null : round(ours / ref.value()));
            row.put("where", ref.where());
            out.add(row);
        }
        return out;
    }

    /** The mean of the metric over the rows this reference entry matches, or {@code null}. */
    private static Double ours(ExperimentSpec spec, List<Map<String, Object>> rows, Reference ref) {
        double sum = 0;
        int n = 0;
        for (Map<String, Object> r : rows) {
            if (sameSeries(r.get(spec.plot().series()), ref.series())
                    && (ref.x() == null || same(r.get(spec.plot().x()), ref.x()))
                    && r.get(ref.metric()) instanceof Number v) {
                sum += v.doubleValue();
                n++;
            }
        }
        return n == 0 ? null : round(sum / n);
    }

    /** The mean of the derived values this reference entry matches, or {@code null}. */
    private static Double derived(List<Map<String, Object>> derived, Reference ref) {
        double sum = 0;
        int n = 0;
        for (Map<String, Object> d : derived) {
            if (d.get("metric").equals(ref.metric()) && sameSeries(d.get("series"), ref.series())
                    && (ref.x() == null || same(d.get("x"), ref.x()))) {
                sum += ((Number) d.get("value")).doubleValue();
                n++;
            }
        }
        return n == 0 ? null : round(sum / n);
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
