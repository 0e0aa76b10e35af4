package org.pagefabric.experiment;

import com.fasterxml.jackson.core.JsonToken;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.experiment.YamlNode.ListNode;
import org.pagefabric.experiment.YamlNode.MapNode;
import org.pagefabric.experiment.YamlNode.Scalar;
import org.pagefabric.workload.Workload;

/**
 * Reads what a spec says the paper published: the {@code reference} list (a value with its
 * tolerance or bound, or a shape: a ranking, a monotone trend) and the {@code series_labels}
 * that map the paper's labels to our series.
 *
 * @param fields       the spec's field readers
 * @param derivedNames names of the spec's derived metrics, which references may use
 */
record ReferenceReader(SpecFields fields, List<String> derivedNames) {
    private static final List<String> REFERENCE_FIELDS = List.of("id", "series", "x", "metric", "value", "where",
            "kind", "tolerance", "reason", "shape", "order", "x_min", "x_max");

    List<ExperimentSpec.Reference> references(YamlNode node, Workload workload, ExperimentSpec.Plot plot) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw new SpecException(fields.file, node.line(), "reference", "must be a list of {series, x, metric, value,"
                    + " where}, not a " + node.kind());
        }
        if (!list.items().isEmpty() && plot == null) {
            throw new SpecException(fields.file, node.line(), "reference",
                    "needs a plot: plot.x says which column the reference x values are in");
        }
        List<ExperimentSpec.Reference> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String f = "reference[" + i + "].";
            if (!(item instanceof MapNode m)) {
                throw new SpecException(fields.file, item.line(), "reference[" + i + "]",
                        "must be a mapping {series, x, metric, value, where}, not a " + item.kind());
            }
            fields.checkFields(m, f, REFERENCE_FIELDS);
            Claim.Shape shape = null;
            if (m.entries().containsKey("shape")) {
                String name = fields.text(m, "shape", f);
                shape = SpecName.byName(Claim.Shape.values(), name);
                if (shape == null) {
                    throw new SpecException(fields.file, m.keyLines().get("shape"), f + "shape", "'" + name
                            + "' is not valid; valid values: " + SpecName.names(Claim.Shape.values()));
                }
            }
            List<String> required = shape == null ? List.of("series", "metric", "value")
                    : shape == Claim.Shape.RANKED ? List.of("metric", "order") : List.of("series", "metric");
            for (String r : required) {
                if (!m.entries().containsKey(r)) {
                    throw new SpecException(fields.file, m.line(), f + r, "missing; a reference needs " + String.join(", ",
                            required) + (shape == null ? " (a number, or withheld)" : " for shape " + shape
                            .name().toLowerCase(java.util.Locale.ROOT)));
                }
            }
            String id = null;
            if (m.entries().containsKey("id")) {
                id = fields.text(m, "id", f);
                if (!id.matches("[a-z0-9_]+")) {
                    throw new SpecException(fields.file, m.keyLines().get("id"), f + "id", "'" + id
                            + "' is not valid; an id is lower-case letters, digits and _");
                }
                String taken = id;
                if (out.stream().anyMatch(r -> taken.equals(r.id()))) {
                    throw new SpecException(fields.file, m.keyLines().get("id"), f + "id", "'" + id
                            + "' is already the id of another reference");
                }
            }
            String series = m.entries().containsKey("series") ? fields.text(m, "series", f) : null;
            // Without x, the entry says nothing of where it holds; the comparison reports it as not
            // comparable when the plot has several x. "all": the claim holds at every x.
            Object x = m.entries().containsKey("x") ? fields.scalar(m, "x", f).value() : null;
            String metric = fields.text(m, "metric", f);
            if (!derivedNames.contains(metric)) {
                fields.checkMetric(metric, m.keyLines().get("metric"), f + "metric", workload);
            }
            Double value = null;
            if (shape != null) {
                for (String no : List.of("value", "kind", "tolerance", "reason")) {
                    if (m.entries().containsKey(no)) {
                        throw new SpecException(fields.file, m.keyLines().get(no), f + no, "does not apply to a shape check;"
                                + " a trend has no value and no tolerance");
                    }
                }
            } else {
                Scalar v = fields.scalar(m, "value", f);
                if (v.isNumber()) {
                    value = fields.finite(v, f + "value");
                } else if (!v.text().equals("withheld")) {
                    throw new SpecException(fields.file, v.line(), f + "value", "'" + v.text()
                            + "' is not a number; write the published number, or withheld");
                }
            }
            String where = m.entries().containsKey("where") ? fields.text(m, "where", f) : null;
            Claim claim = shape != null ? trend(m, f, shape) : claim(m, f, value);
            out.add(new ExperimentSpec.Reference(id, series, x, metric, value, where, claim));
        }
        return out;
    }

    /** The ratio tolerance or bound of a reference that gives a value. */
    Claim claim(MapNode m, String f, Double value) {
        Claim.Kind kind = Claim.Kind.MEASURED;
        if (m.entries().containsKey("kind")) {
            String name = fields.text(m, "kind", f);
            kind = SpecName.byName(Claim.Kind.values(), name);
            if (kind == null) {
                throw new SpecException(fields.file, m.keyLines().get("kind"), f + "kind", "'" + name
                        + "' is not valid; valid values: " + SpecName.names(Claim.Kind.values()));
            }
        }
        boolean bound = kind == Claim.Kind.AT_MOST || kind == Claim.Kind.AT_LEAST;
        if (!m.entries().containsKey("tolerance")) {
            if (m.entries().containsKey("reason")) {
                throw new SpecException(fields.file, m.keyLines().get("reason"), f + "reason",
                        "explains a tolerance; give tolerance: [low, high] with it");
            }
            if (!bound && value != null && value == 0) {
                throw new SpecException(fields.file, m.keyLines().get("value"), f + "value", "0 has no ratio tolerance;"
                        + " state it as kind: at_most or at_least");
            }
            return bound ? new Claim.Bound(kind == Claim.Kind.AT_MOST) : Claim.Ratio.of(kind);
        }
        if (bound) {
            throw new SpecException(fields.file, m.keyLines().get("tolerance"), f + "tolerance",
                    "does not apply to kind " + fields.text(m, "kind", f) + ": the bound itself is the tolerance");
        }
        YamlNode t = m.entries().get("tolerance");
        if (!(t instanceof ListNode l) || l.items().size() != 2
                || !(l.items().get(0) instanceof Scalar lo) || !lo.isNumber()
                || !(l.items().get(1) instanceof Scalar hi) || !hi.isNumber()) {
            throw new SpecException(fields.file, m.keyLines().get("tolerance"), f + "tolerance",
                    "must be [low, high]: the lowest and highest ratio ours/paper within tolerance");
        }
        double low = fields.finite(lo, f + "tolerance");
        double high = fields.finite(hi, f + "tolerance");
        if (!(low > 0 && low <= 1 && high >= 1 && Double.isFinite(high))) {
            throw new SpecException(fields.file, m.keyLines().get("tolerance"), f + "tolerance", "[" + lo.text() + ", "
                    + hi.text() + "] is not valid; need 0 < low <= 1 <= high");
        }
        String reason = m.entries().containsKey("reason") ? fields.text(m, "reason", f) : null;
        Claim.Ratio r = new Claim.Ratio(kind, low, high, reason);
        if (r.widened() && (reason == null || reason.isBlank())) {
            throw new SpecException(fields.file, m.keyLines().get("tolerance"), f + "tolerance", "is wider than the "
                    + fields.text(m, "kind", f, "measured") + " default " + Claim.Ratio.of(kind).describe(value)
                    + "; a wider tolerance needs reason: \"why\"");
        }
        return r;
    }

    /** A shape check: the order of a ranking, the x range of a monotone trend. */
    Claim trend(MapNode m, String f, Claim.Shape shape) {
        List<List<String>> order = new ArrayList<>();
        if (m.entries().containsKey("order")) {
            if (shape != Claim.Shape.RANKED) {
                throw new SpecException(fields.file, m.keyLines().get("order"), f + "order", "applies to shape: ranked only");
            }
            if (!(m.entries().get("order") instanceof ListNode l) || l.items().size() < 2) {
                throw new SpecException(fields.file, m.keyLines().get("order"), f + "order", "must list at least two series"
                        + " or groups of series, highest first: [A, [B, C], D]");
            }
            for (YamlNode item : l.items()) {
                if (item instanceof Scalar s && s.token() != JsonToken.VALUE_NULL) {
                    order.add(List.of(s.text()));
                } else if (item instanceof ListNode g && !g.items().isEmpty()
                        && g.items().stream().allMatch(i -> i instanceof Scalar)) {
                    order.add(g.items().stream().map(i -> ((Scalar) i).text()).toList());
                } else {
                    throw new SpecException(fields.file, item.line(), f + "order", "items must be series or lists of series");
                }
            }
        } else if (m.entries().containsKey("series") && shape == Claim.Shape.RANKED) {
            throw new SpecException(fields.file, m.keyLines().get("series"), f + "series",
                    "a ranking names its series in order, not in series");
        }
        boolean monotone = shape == Claim.Shape.INCREASING || shape == Claim.Shape.DECREASING;
        Double xMin = null;
        Double xMax = null;
        for (String k : List.of("x_min", "x_max")) {
            if (!m.entries().containsKey(k)) {
                continue;
            }
            Scalar v = fields.scalar(m, k, f);
            if (!monotone || !v.isNumber()) {
                throw new SpecException(fields.file, v.line(), f + k, !monotone ? "applies to shapes increasing and"
                        + " decreasing only" : "'" + v.text() + "' is not a number");
            }
            double d = fields.finite(v, f + k);
            if (k.equals("x_min")) {
                xMin = d;
            } else {
                xMax = d;
            }
        }
        if (monotone && m.entries().containsKey("x")) {
            throw new SpecException(fields.file, m.keyLines().get("x"), f + "x", "a trend over x takes x_min and x_max,"
                    + " not x");
        }
        return new Claim.Trend(shape, order, xMin, xMax);
    }

    /** The {@code series_labels} mapping: the paper's labels, as references write them, to our series values. */
    Map<String, String> seriesLabels(MapNode top) {
        YamlNode node = top.entries().get("series_labels");
        if (node == null) {
            return Map.of();
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(fields.file, node.line(), "series_labels", "must be a mapping {\"paper label\": our"
                    + " series, ...}, not a " + node.kind());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String label : m.entries().keySet()) {
            YamlNode v = m.entries().get(label);
            if (!(v instanceof Scalar s) || s.token() != JsonToken.VALUE_STRING || s.text().isBlank()) {
                throw new SpecException(fields.file, m.keyLines().get(label), "series_labels." + label, "must be the name"
                        + " of one of our series as text, not a " + (v instanceof Scalar t && t.token()
                        == JsonToken.VALUE_STRING ? "blank text" : v.kind()) + "; quote it if it looks like a number");
            }
            out.put(label, s.text());
        }
        return out;
    }
}
