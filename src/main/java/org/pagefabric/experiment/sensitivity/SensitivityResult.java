package org.pagefabric.experiment.sensitivity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.Verdict;

/**
 * What a sensitivity study found: for every published number (withheld ones are left out), the
 * band of ours over the runs, the nominal value and verdict, and whether the verdict holds across
 * the band. A verdict that some run turns is <b>fragile</b>; it names the one-at-a-time ends that
 * turn it, the parameters it hinges on, or says only the joint samples do.
 *
 * @param spec       the spec as run ({@code --quick} and {@code --set} applied)
 * @param quick      whether the runs were {@code --quick}
 * @param sets       the {@code --set} values of every run
 * @param samples    how many hypercube samples
 * @param seed       the hypercube's seed
 * @param parameters the parameters varied
 * @param runs       every run, the nominal one first
 */
public record SensitivityResult(ExperimentSpec spec, boolean quick, Map<String, String> sets, int samples, long seed,
        List<VariedParameter> parameters, List<StudyRun> runs) {

    /** What the robustness column says of a verdict that every run reaches. */
    public static final String ROBUST = "robust";
    /** What it says of a verdict some run turns. */
    public static final String FRAGILE = "fragile";

    /** The columns of a band row, in order. */
    public static final List<String> COLUMNS = List.of("series", "x", "metric", "paper", "tolerance", "ours", "band",
            "verdict", "role", "robustness", "runs_within", "hinges_on");

    /** Copies the collections. */
    public SensitivityResult {
        sets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sets));
        parameters = List.copyOf(parameters);
        runs = List.copyOf(runs);
    }

    /** The nominal run. */
    public StudyRun nominal() {
        return runs.getFirst();
    }

    /** The runs that produced rows. */
    public List<StudyRun> completed() {
        return runs.stream().filter(r -> r.failure() == null).toList();
    }

    /**
     * One row per published (not withheld) reference, in the spec's order: {@link #COLUMNS},
     * {@code band} the lowest and highest numeric ours over the runs (blank for a trend whose ours
     * is text), {@code robustness} {@value #ROBUST}, {@value #FRAGILE} or {@code not comparable}.
     */
    public List<Map<String, Object>> bands() {
        List<Map<String, Object>> out = new ArrayList<>();
        List<StudyRun> done = completed();
        List<Map<String, Object>> nominalRows = nominal().comparison();
        for (int i = 0; i < nominalRows.size(); i++) {
            Map<String, Object> n = nominalRows.get(i);
            if (Verdict.WITHHELD.text().equals(n.get("verdict"))) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("series", n.get("series"));
            row.put("x", n.get("x"));
            row.put("metric", n.get("metric"));
            row.put("paper", n.get("paper"));
            row.put("tolerance", n.get("tolerance"));
            row.put("ours", n.get("ours"));
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            int within = 0;
            String verdict = String.valueOf(n.get("verdict"));
            List<String> turns = new ArrayList<>();
            int turningSamples = 0;
            for (StudyRun r : done) {
                Map<String, Object> c = r.comparison().get(i);
                if (c.get("ours") instanceof Number v) {
                    lo = Math.min(lo, v.doubleValue());
                    hi = Math.max(hi, v.doubleValue());
                }
                if (Verdict.WITHIN.text().equals(c.get("verdict"))) {
                    within++;
                }
                if (!verdict.equals(String.valueOf(c.get("verdict")))) {
                    if (r.kind() == StudyRun.Kind.SAMPLE) {
                        turningSamples++;
                    } else {
                        turns.add(r.label());
                    }
                }
            }
            row.put("band", lo <= hi ? format(lo) + " .. " + format(hi) : null);
            row.put("verdict", verdict);
            // a calibration target moves with the parameter fitted on it by construction
            row.put("role", n.get("role"));
            boolean comparable = !Verdict.NOT_COMPARABLE.text().equals(verdict);
            boolean fragile = !turns.isEmpty() || turningSamples > 0;
            row.put("robustness", !comparable ? Verdict.NOT_COMPARABLE.text() : fragile ? FRAGILE : ROBUST);
            row.put("runs_within", within + " of " + done.size());
            String hinges = String.join(", ", turns);
            if (turningSamples > 0) {
                String joint = (turns.isEmpty() ? "joint variation only: " : "") + turningSamples + " of " + samples
                        + " samples";
                hinges = hinges.isEmpty() ? joint : hinges + "; " + joint;
            }
            row.put("hinges_on", comparable && fragile ? hinges : null);
            out.add(row);
        }
        return out;
    }

    /** One row per varied parameter: name, nominal value, plausible range, its basis and reason. */
    public List<Map<String, Object>> parameterRows() {
        return parameterRows(parameters);
    }

    /** One row per parameter of {@code varied}: name, nominal value, plausible range, its basis and reason. */
    public static List<Map<String, Object>> parameterRows(List<VariedParameter> varied) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (VariedParameter v : varied) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("parameter", v.name());
            row.put("nominal", v.nominal());
            row.put("range", v.range().text());
            row.put("basis", v.range().basis().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            row.put("reason", v.range().reason());
            out.add(row);
        }
        return out;
    }

    /** One row per run that produced nothing: its label and why. */
    public List<Map<String, Object>> failures() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (StudyRun r : runs) {
            if (r.failure() != null) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("run", r.label());
                row.put("failure", r.failure());
                out.add(row);
            }
        }
        return out;
    }

    /** How many references are fragile, of how many comparable ones. */
    public String summary() {
        List<Map<String, Object>> b = bands();
        long comparable = b.stream().filter(r -> !Verdict.NOT_COMPARABLE.text().equals(r.get("robustness"))).count();
        long fragile = b.stream().filter(r -> FRAGILE.equals(r.get("robustness"))).count();
        return fragile + " of " + comparable + " verdicts fragile over " + parameters.size() + " parameters and "
                + runs.size() + " runs" + (failures().isEmpty() ? "" : " (" + failures().size() + " failed)");
    }

    /** The whole result as one JSON-ready document: identity, options, parameters, bands, failures. */
    public Map<String, Object> document() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("experiment", spec.id());
        d.put("quick", quick);
        d.put("sets", sets);
        d.put("samples", samples);
        d.put("seed", seed);
        d.put("runs", runs.size());
        d.put("summary", summary());
        d.put("parameters", parameterRows());
        d.put("bands", bands());
        d.put("failures", failures());
        return d;
    }

    private static String format(double v) {
        double r = Math.round(v * 1000.0) / 1000.0;
        if (Math.abs(v) >= 1e5 || Math.abs(v) < 1e-2 && v != 0) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        String s = Double.toString(r);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
