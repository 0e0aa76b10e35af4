package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.experiment.YamlNode.ListNode;
import org.pagefabric.experiment.YamlNode.MapNode;
import org.pagefabric.experiment.YamlNode.Scalar;
import org.pagefabric.workload.Workload;

/**
 * Reads a spec's {@code derived} list: metrics computed across rows ({@link DerivedMetric}).
 *
 * @param fields the spec's field readers
 */
record DerivedReader(SpecFields fields) {
    private static final List<String> DERIVED_FIELDS = List.of("name", "metric", "series", "over", "over_x", "pick",
            "x_max", "at_crossing", "as");

    List<DerivedMetric> derived(YamlNode node, Workload workload, ExperimentSpec.Plot plot) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw new SpecException(fields.file, node.line(), "derived", "must be a list of {name, metric, series, over |"
                    + " over_x, pick, x_max, at_crossing}, not a " + node.kind());
        }
        if (!list.items().isEmpty() && plot == null) {
            throw new SpecException(fields.file, node.line(), "derived", "needs a plot: plot.series and plot.x say what"
                    + " series and x mean");
        }
        List<DerivedMetric> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String f = "derived[" + i + "].";
            if (!(item instanceof MapNode m)) {
                throw new SpecException(fields.file, item.line(), "derived[" + i + "]", "must be a mapping {name, metric,"
                        + " series, over | over_x, ...}, not a " + item.kind());
            }
            fields.checkFields(m, f, DERIVED_FIELDS);
            for (String required : List.of("name", "metric", "series")) {
                if (!m.entries().containsKey(required)) {
                    throw new SpecException(fields.file, m.line(), f + required, "missing; a derived metric needs name,"
                            + " metric, series and one of over or over_x");
                }
            }
            String name = fields.text(m, "name", f);
            String series = fields.text(m, "series", f);
            // One name may be derived for several series (a paper's statement about each of them).
            if (workload.metrics().contains(name)
                    || out.stream().anyMatch(d -> d.name().equals(name) && d.series().equals(series))) {
                throw new SpecException(fields.file, m.keyLines().get("name"), f + "name", "'" + name
                        + "' is already a metric" + (workload.metrics().contains(name) ? "" : " of series " + series)
                        + "; a derived metric needs a name of its own");
            }
            String metric = fields.text(m, "metric", f);
            fields.checkMetric(metric, m.keyLines().get("metric"), f + "metric", workload);
            List<String> over = m.entries().containsKey("over") ? fields.textList(m, "over", false) : List.of();
            Object overX = m.entries().containsKey("over_x") ? fields.scalar(m, "over_x", f).value() : null;
            if (over.isEmpty() == (overX == null)) {
                throw new SpecException(fields.file, m.line(), f + "over", "give exactly one of over (a list of series) and"
                        + " over_x (an x value)");
            }
            boolean pickMax = false;
            if (m.entries().containsKey("pick")) {
                String pick = fields.text(m, "pick", f);
                if (!pick.equals("min") && !pick.equals("max")) {
                    throw new SpecException(fields.file, m.keyLines().get("pick"), f + "pick", "'" + pick
                            + "' is not valid; valid values: min, max");
                }
                pickMax = pick.equals("max");
            }
            Double xMax = null;
            if (m.entries().containsKey("x_max")) {
                Scalar v = fields.scalar(m, "x_max", f);
                if (!v.isNumber()) {
                    throw new SpecException(fields.file, v.line(), f + "x_max", "'" + v.text() + "' is not a number");
                }
                xMax = fields.finite(v, f + "x_max");
            }
            String atCrossing = null;
            if (m.entries().containsKey("at_crossing")) {
                atCrossing = fields.text(m, "at_crossing", f);
                fields.checkMetric(atCrossing, m.keyLines().get("at_crossing"), f + "at_crossing", workload);
                if (over.size() != 1) {
                    throw new SpecException(fields.file, m.keyLines().get("at_crossing"), f + "at_crossing",
                            "needs exactly one series in over, the one whose curve is crossed");
                }
            }
            DerivedMetric.Form form = DerivedMetric.Form.RATIO;
            if (m.entries().containsKey("as")) {
                String as = fields.text(m, "as", f);
                form = SpecName.byName(DerivedMetric.Form.values(), as);
                if (form == null) {
                    throw new SpecException(fields.file, m.keyLines().get("as"), f + "as", "'" + as
                            + "' is not valid; valid values: " + SpecName.names(DerivedMetric.Form.values()));
                }
                if (atCrossing != null) {
                    throw new SpecException(fields.file, m.keyLines().get("as"), f + "as",
                            "applies to ratios only, not to a value at a crossing (at_crossing)");
                }
            }
            out.add(new DerivedMetric(name, metric, series, over, overX, pickMax, xMax, atCrossing, form));
        }
        return out;
    }
}
