package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hipparchus.optim.InitialGuess;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.SimpleBounds;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunction;
import org.hipparchus.optim.nonlinear.scalar.noderiv.BOBYQAOptimizer;
import org.hipparchus.optim.univariate.BrentOptimizer;
import org.hipparchus.optim.univariate.SearchInterval;
import org.hipparchus.optim.univariate.UnivariateObjectiveFunction;
import org.pagefabric.config.Dimension;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.experiment.ExperimentSpec.Reference;

/**
 * Fits free cost parameters of a profile to published aggregates of one experiment, as validated
 * simulators calibrate an unknown cost on one measurement and validate on the rest. Each free
 * parameter has one target (a reference of the experiment with an {@code id} and a published
 * value); the search minimises the sum over the targets of {@code ln(ours / paper)^2} with
 * Hipparchus' Brent optimiser (one parameter) or BOBYQA (several), each evaluation a run of the
 * experiment restricted to what the targets read. Runs are deterministic, so the fit is too.
 */
public final class ParameterFit {
    /** The cost of an evaluation in which a target has no value (a run that produced nothing). */
    private static final double NO_VALUE = 1e6;
    private static final Pattern QUANTITY = Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*(.*?)\\s*");

    /**
     * A parameter to fit and its search range, both ends in one unit.
     *
     * @param name the profile parameter
     * @param low  the lowest value
     * @param high the highest value
     * @param unit the unit of both ends as a profile writes it ({@code us}), or empty
     */
    public record FreeParameter(String name, double low, double high, String unit) {
        /** The value as a profile or {@code --set} writes it; a count is rounded to a whole number. */
        public String text(double value) {
            String v = whole() ? Long.toString(Math.round(value)) : significant(value);
            return unit.isEmpty() ? v : v + " " + unit;
        }

        /** Whether the parameter counts items, so that only whole values can be tried. */
        boolean whole() {
            return ParameterRegistry.find(name).map(p -> p.dimension() == Dimension.COUNT).orElse(false);
        }

        /** Whether the search runs on a logarithmic scale (a positive range of a decade or more). */
        boolean logScale() {
            return low > 0 && high / low >= 10;
        }

        double toSearch(double v) {
            return logScale() ? Math.log(v) : v;
        }

        double fromSearch(double s) {
            return logScale() ? Math.exp(s) : s;
        }
    }

    /**
     * One evaluation: the values tried, each target's comparison row and the cost.
     *
     * @param values  the parameter values, in the order of the free parameters
     * @param targets the targets' comparison rows ({@link ReferenceComparison#COLUMNS})
     * @param cost    the sum of the squared log ratios
     */
    public record Evaluation(double[] values, List<Map<String, Object>> targets, double cost) {
    }

    private final ExperimentSpec spec;
    private final ExperimentSpec restricted;
    private final List<FreeParameter> parameters;
    private final List<Integer> targetIndexes;
    private final Map<String, String> sets;
    private final int threads;
    private final List<Evaluation> history = new ArrayList<>();
    private final Map<String, Evaluation> memo = new java.util.HashMap<>();

    /**
     * Prepares a fit; every error (unknown parameter, target without a published value, a target
     * count that does not match the parameter count) comes before anything runs.
     *
     * @param spec       the experiment whose references are the targets
     * @param parameters the free parameters
     * @param targetIds  the reference ids, one per parameter; empty to use the spec's only reference
     *                   with a published value
     * @param sets       {@code --set} values applied to every evaluation
     * @param threads    worker threads per evaluation
     */
    public ParameterFit(ExperimentSpec spec, List<FreeParameter> parameters, List<String> targetIds,
            Map<String, String> sets, int threads) {
        this.spec = spec;
        this.parameters = List.copyOf(parameters);
        this.sets = new LinkedHashMap<>(sets);
        this.threads = threads;
        if (parameters.isEmpty()) {
            throw new IllegalArgumentException("--param: give at least one parameter to fit, e.g. --param NAME=LO..HI");
        }
        for (FreeParameter p : parameters) {
            if (ParameterRegistry.find(p.name()).isEmpty()) {
                throw new IllegalArgumentException("--param " + p.name() + ": not a profile parameter; see pagefabric"
                        + " info parameters");
            }
            if (!(p.low() < p.high())) {
                throw new IllegalArgumentException("--param " + p.name() + ": the range needs LO < HI");
            }
        }
        List<Integer> idx = new ArrayList<>();
        List<Reference> refs = spec.reference();
        if (targetIds.isEmpty()) {
            for (int i = 0; i < refs.size(); i++) {
                if (refs.get(i).value() != null) {
                    idx.add(i);
                }
            }
            if (idx.size() != 1) {
                throw new IllegalArgumentException("--target: " + spec.id() + " publishes " + idx.size()
                        + " numbers; name the one to fit on by its id (" + ids(refs) + ")");
            }
        } else {
            for (String id : targetIds) {
                int at = -1;
                for (int i = 0; i < refs.size(); i++) {
                    if (id.equals(refs.get(i).id())) {
                        at = i;
                    }
                }
                if (at < 0) {
                    throw new IllegalArgumentException("--target " + id + ": " + spec.id()
                            + " has no reference with that id; ids: " + ids(refs));
                }
                if (refs.get(at).value() == null) {
                    throw new IllegalArgumentException("--target " + id + ": " + (refs.get(at).withheld()
                            ? "the seed withholds this value; withheld values are never calibrated on"
                            : "a trend has no value to fit on"));
                }
                idx.add(at);
            }
        }
        if (idx.size() != parameters.size()) {
            throw new IllegalArgumentException("each fitted parameter needs its own target: " + parameters.size()
                    + " --param, " + idx.size() + " --target");
        }
        this.targetIndexes = List.copyOf(idx);
        this.restricted = restrict(spec, idx);
    }

    /** The free parameter {@code NAME=LO..HI} (or {@code NAME}: a decade either side of the profile's value). */
    public static FreeParameter parse(String text, ExperimentSpec spec) {
        int eq = text.indexOf('=');
        String name = (eq < 0 ? text : text.substring(0, eq)).strip();
        var parameter = ParameterRegistry.find(name).orElse(null);
        if (parameter == null) {
            throw new IllegalArgumentException("--param " + name + ": not a profile parameter; see pagefabric info"
                    + " parameters");
        }
        if (eq < 0) {
            ResolvedSetting s = spec.profile().setting(parameter);
            Matcher m = QUANTITY.matcher(s.text());
            if (!m.matches() || Double.parseDouble(m.group(1)) <= 0) {
                throw new IllegalArgumentException("--param " + name + ": give a range, NAME=LO..HI (the profile's "
                        + s.written() + " has no default range)");
            }
            double v = Double.parseDouble(m.group(1));
            return new FreeParameter(name, v / 10, v * 10, s.unit());
        }
        String range = text.substring(eq + 1);
        int dots = range.indexOf("..");
        if (dots < 0) {
            throw new IllegalArgumentException("--param " + text + ": write NAME=LO..HI, e.g. " + name + "=10us..500us");
        }
        Matcher lo = QUANTITY.matcher(range.substring(0, dots));
        Matcher hi = QUANTITY.matcher(range.substring(dots + 2));
        if (!lo.matches() || !hi.matches()) {
            throw new IllegalArgumentException("--param " + text + ": LO and HI must be numbers with a unit, e.g. "
                    + name + "=10us..500us");
        }
        String unit = !lo.group(2).isEmpty() ? lo.group(2) : hi.group(2);
        if (!lo.group(2).isEmpty() && !hi.group(2).isEmpty() && !lo.group(2).equals(hi.group(2))) {
            throw new IllegalArgumentException("--param " + text + ": LO and HI need the same unit");
        }
        return new FreeParameter(name, Double.parseDouble(lo.group(1)), Double.parseDouble(hi.group(1)), unit);
    }

    /** The free parameters. */
    public List<FreeParameter> parameters() {
        return parameters;
    }

    /** The targets, in parameter order. */
    public List<Reference> targets() {
        return targetIndexes.stream().map(i -> spec.reference().get(i)).toList();
    }

    /** Every evaluation so far, in order. */
    public List<Evaluation> history() {
        return List.copyOf(history);
    }

    /**
     * Searches the parameters and returns the best evaluation.
     *
     * @param maxEvaluations the most experiment runs the search may make
     * @param progress       told of each evaluation
     */
    public Evaluation fit(int maxEvaluations, Consumer<Evaluation> progress) {
        FreeParameter only = parameters.size() == 1 ? parameters.getFirst() : null;
        if (only != null && only.whole() && Math.floor(only.high()) - Math.ceil(only.low()) + 1 <= maxEvaluations) {
            // A count: a search between whole values would repeat runs, so every whole value in the range is tried.
            for (long v = (long) Math.ceil(only.low()); v <= (long) Math.floor(only.high()); v++) {
                evaluate(new double[] {v}, progress);
            }
        } else if (parameters.size() == 1) {
            FreeParameter p = parameters.getFirst();
            BrentOptimizer brent = new BrentOptimizer(1e-4, 1e-9);
            brent.optimize(new MaxEval(maxEvaluations), GoalType.MINIMIZE,
                    new SearchInterval(p.toSearch(p.low()), p.toSearch(p.high())),
                    new UnivariateObjectiveFunction(s -> evaluate(new double[] {p.fromSearch(s)}, progress).cost()));
        } else {
            int n = parameters.size();
            double[] lo = new double[n];
            double[] hi = new double[n];
            double[] start = new double[n];
            for (int i = 0; i < n; i++) {
                FreeParameter p = parameters.get(i);
                lo[i] = p.toSearch(p.low());
                hi[i] = p.toSearch(p.high());
                start[i] = (lo[i] + hi[i]) / 2;
            }
            BOBYQAOptimizer bobyqa = new BOBYQAOptimizer(2 * n + 1);
            bobyqa.optimize(new MaxEval(maxEvaluations), GoalType.MINIMIZE, new InitialGuess(start),
                    new SimpleBounds(lo, hi), new ObjectiveFunction(s -> {
                        double[] v = new double[n];
                        for (int i = 0; i < n; i++) {
                            v[i] = parameters.get(i).fromSearch(s[i]);
                        }
                        return evaluate(v, progress).cost();
                    }));
        }
        Evaluation best = history.getFirst();
        for (Evaluation e : history) {
            if (e.cost() < best.cost()) {
                best = e;
            }
        }
        return best;
    }

    /**
     * Runs the restricted experiment with these values and scores the targets. Values are written
     * with four significant digits, so the search's steps below that precision repeat an earlier
     * run: those are answered from memory, and only new runs reach {@code progress}.
     */
    public Evaluation evaluate(double[] values, Consumer<Evaluation> progress) {
        Map<String, String> overrides = new LinkedHashMap<>(sets);
        double[] written = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            String text = parameters.get(i).text(values[i]);
            overrides.put(parameters.get(i).name(), text);
            written[i] = parameters.get(i).whole() ? Math.round(values[i]) : Double.parseDouble(significant(values[i]));
        }
        String key = overrides.toString();
        Evaluation known = memo.get(key);
        if (known != null) {
            return known;
        }
        ExperimentResult result = ExperimentRunner.run(restricted,
                new ExperimentRunner.Options(threads, false, false, overrides));
        // The free parameters are set on purpose: the targets are read as the run made them.
        List<Map<String, Object>> all = ReferenceComparison.compare(result.spec(), result, restricted);
        List<Map<String, Object>> rows = new ArrayList<>();
        double cost = 0;
        for (int i : targetIndexes) {
            Map<String, Object> row = all.get(i);
            rows.add(row);
            cost += row.get("ours") instanceof Number ours && ours.doubleValue() / spec.reference().get(i).value() > 0
                    ? Math.pow(Math.log(ours.doubleValue() / spec.reference().get(i).value()), 2) : NO_VALUE;
        }
        Evaluation e = new Evaluation(written, rows, cost);
        memo.put(key, e);
        history.add(e);
        progress.accept(e);
        return e;
    }

    /**
     * The spec cut down to what the targets read: their one x when they share it, and their
     * series when the series are policies and no target is a derived metric (which may read others).
     */
    private static ExperimentSpec restrict(ExperimentSpec spec, List<Integer> targets) {
        ExperimentSpec s = spec;
        List<Reference> refs = targets.stream().map(i -> spec.reference().get(i)).toList();
        boolean derived = refs.stream().anyMatch(r -> spec.derived().stream().anyMatch(d -> d.name().equals(r.metric())));
        if (!derived && spec.plot() != null && spec.plot().series().equals("policy")) {
            List<String> policies = new ArrayList<>();
            for (Reference r : refs) {
                String ours = spec.seriesLabels().getOrDefault(r.series(), r.series());
                spec.policies().stream().filter(p -> p.equalsIgnoreCase(ours)).findFirst()
                        .filter(p -> !policies.contains(p)).ifPresent(policies::add);
            }
            if (policies.size() == refs.size() || !policies.isEmpty() && refs.stream().map(Reference::series)
                    .distinct().count() == policies.size()) {
                s = s.withPolicies(spec.id(), policies);
            }
        }
        Object x = refs.getFirst().x();
        ExperimentSpec.Axis axis = spec.plot() == null ? null : spec.axis(spec.plot().x());
        if (x != null && !refs.getFirst().allX() && axis != null && axis.kind() != ExperimentSpec.AxisKind.PROFILE_NAME
                && refs.stream().allMatch(r -> ReferenceComparison.same(r.x(), x))
                && axis.values().stream().anyMatch(v -> ReferenceComparison.same(v, x))) {
            List<ExperimentSpec.Axis> axes = new ArrayList<>(s.grid());
            axes.set(axes.indexOf(axis), new ExperimentSpec.Axis(axis.key(), axis.kind(), axis.column(),
                    axis.values().stream().filter(v -> ReferenceComparison.same(v, x)).toList(), axis.file(),
                    axis.line()));
            s = s.with(axes, s.seed(), s.repetitions());
        }
        return s;
    }

    private static String ids(List<Reference> refs) {
        List<String> ids = refs.stream().filter(r -> r.id() != null && r.value() != null).map(Reference::id).toList();
        return ids.isEmpty() ? "none: give the target reference an id in the spec" : String.join(", ", ids);
    }

    /** Four significant digits, without a trailing {@code .0}: a fitted value is no more precise than that. */
    static String significant(double v) {
        String s = new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros()
                .toPlainString();
        return s.equals("-0") ? "0" : s.toLowerCase(Locale.ROOT);
    }
}
