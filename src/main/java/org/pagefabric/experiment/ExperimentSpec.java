package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.config.Profile;
import org.pagefabric.workload.Workload;

/**
 * One experiment as its YAML spec describes it (see {@code docs/SPEC-FORMAT.md}), validated and
 * with defaults filled in: what to run (workload, policies, profile, grid), how often
 * (seed, repetitions), what to report (metrics, plot) and what the paper published
 * (reference). Built by {@link SpecReader}; expanded into points by {@link Grid}.
 *
 * <p>A spec with unmet prerequisites ({@code requires} not empty) describes an experiment whose
 * workload or policies do not exist yet: only its identity and prerequisites are read, so that
 * {@code info} can list it and {@code reproduce} refuse it with its reason; its workload,
 * profile and plot are then {@code null} and its grid, metrics and reference empty.
 *
 * @param file            where the spec was read from (a path or {@code experiments/<id>.yaml})
 * @param id              the stable id, e.g. {@code part.fig7}
 * @param title           one line saying what is measured
 * @param paper           the seed reproduced ({@code "000"}..), or {@code null} for a user experiment
 * @param where           the figure or table in the seed, or {@code null}
 * @param requires        unmet prerequisites, one-line reasons; empty when the experiment can run
 * @param workload        the workload ({@code null} while prerequisites are unmet)
 * @param policies        the registration policies, each a series
 * @param profileRef      the profile as the spec names it (a bundled name or an absolute path)
 * @param profile         that profile, resolved ({@code null} while prerequisites are unmet)
 * @param seed            the seed of repetition 0
 * @param repetitions     how many seeds each grid point runs with
 * @param grid            the grid axes in the order written
 * @param quick           what {@code --quick} changes, or {@code null} if the spec says nothing
 * @param metrics         the metrics the experiment reports
 * @param plot            the plot, or {@code null}
 * @param reference       the paper's published values, for comparison only
 * @param derived         metrics computed across rows for the comparison ({@link DerivedMetric})
 * @param seriesLabels    the paper's series labels as references write them, to our series values
 *                        ({@code "Rendezvous no-unpin" -> rendezvous-nounpin}); a label not listed
 *                        matches a series of the same name, ignoring case
 * @param expectedFailures the rows the experiment fails by design, and why ({@link ExpectedFailure})
 * @param designCheck     why no published measurement checks the experiment (it checks a claim of
 *                        the design), or {@code null} when it reproduces published numbers
 */
public record ExperimentSpec(String file, String id, String title, String paper, String where, List<String> requires,
        Workload workload, List<String> policies, String profileRef, Profile profile, long seed, int repetitions,
        List<Axis> grid, Quick quick, List<String> metrics, Plot plot, List<Reference> reference,
        List<DerivedMetric> derived, java.util.Map<String, String> seriesLabels,
        List<ExpectedFailure> expectedFailures, String designCheck) {

    /** Copies the lists, so a spec is immutable. */
    public ExperimentSpec {
        requires = List.copyOf(requires);
        policies = List.copyOf(policies);
        grid = List.copyOf(grid);
        metrics = List.copyOf(metrics);
        reference = List.copyOf(reference);
        derived = List.copyOf(derived);
        seriesLabels = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(seriesLabels));
        expectedFailures = List.copyOf(expectedFailures);
    }

    /** A spec that states no design check. */
    public ExperimentSpec(String file, String id, String title, String paper, String where, List<String> requires,
                          Workload workload, List<String> policies, String profileRef, Profile profile, long seed,
                          int repetitions, List<Axis> grid, Quick quick, List<String> metrics, Plot plot,
                          List<Reference> reference, List<DerivedMetric> derived,
                          java.util.Map<String, String> seriesLabels, List<ExpectedFailure> expectedFailures) {
        this(file, id, title, paper, where, requires, workload, policies, profileRef, profile, seed, repetitions, grid,
                quick, metrics, plot, reference, derived, seriesLabels, expectedFailures, null);
    }

    /**
     * What {@code reproduce} and the index say the experiment checks: "design check: REASON" for
     * a spec with {@code design_check}, else {@code where}.
     */
    public String checks() {
        if (designCheck == null) {
            return where;
        }
        return "design check: " + designCheck;
    }

    /** A spec without derived metrics. */
    public ExperimentSpec(String file, String id, String title, String paper, String where, List<String> requires,
                          Workload workload, List<String> policies, String profileRef, Profile profile, long seed,
                          int repetitions, List<Axis> grid, Quick quick, List<String> metrics, Plot plot,
                          List<Reference> reference) {
        this(file, id, title, paper, where, requires, workload, policies, profileRef, profile, seed, repetitions, grid,
                quick, metrics, plot, reference, List.of(), java.util.Map.of(), List.of());
    }

    /** Whether an axis sets a workload parameter or a profile parameter. */
    public enum AxisKind {
        /** A parameter the workload declares ({@code size_B}). */
        WORKLOAD,
        /** A profile parameter ({@code link.loss}), applied as an override. */
        PROFILE,
        /**
         * The grid key {@code profile}: each value a whole profile (a bundled name, or a path
         * resolved against the spec's directory) that replaces the spec's top-level profile.
         */
        PROFILE_NAME
    }

    /** The grid key that sweeps whole profiles. */
    public static final String PROFILE_KEY = "profile";

    /**
     * One grid key and its values.
     *
     * @param key    the key as written ({@code size_B}, {@code link.loss})
     * @param kind   workload or profile parameter
     * @param column the row column its value goes to: the key, or for a profile parameter with a
     *               canonical unit the key and that unit ({@code transport.mtu_B})
     * @param values the values: workload values in their stored form ({@link Long},
     *               {@link Boolean}, {@link String}); profile values as written ({@code "4 KiB"});
     *               profile names as references {@link org.pagefabric.config.ProfileRegistry#resolve}
     *               takes (a bundled name or a normalised path)
     * @param file   where the axis was written: the spec file, or {@code --set}
     * @param line   the line of the key in {@code file}, or 0; a profile value's source names both
     */
    public record Axis(String key, AxisKind kind, String column, List<Object> values, String file, int line) {
        /** Copies the values. */
        public Axis {
            values = List.copyOf(values);
        }
    }

    /**
     * What {@code --quick} overrides.
     *
     * @param repetitions repetitions under {@code --quick}, or 0 to keep the spec's
     * @param grid        axes whose values replace (or, for a new key, join) the grid's
     */
    public record Quick(int repetitions, List<Axis> grid) {
        /** Copies the axes. */
        public Quick {
            grid = List.copyOf(grid);
        }
    }

    /**
     * The figure: which columns go on which axis.
     *
     * @param x      the column on the x axis
     * @param y      the metric on the y axis
     * @param series the column whose values are the series (usually {@code policy}), or several
     *               columns joined by {@link #SERIES_JOIN} ({@code scheme/policy}), whose values,
     *               joined the same way, name a series ({@code aa/aa-poll})
     * @param logx   logarithmic x axis
     * @param logy   logarithmic y axis
     * @param title  the figure title
     */
    public record Plot(String x, String y, String series, boolean logx, boolean logy, String title) {
        /** What joins the columns of a series made of several, and their values. */
        public static final String SERIES_JOIN = "/";

        /** The columns the series is made of, in order. */
        public List<String> seriesColumns() {
            return seriesColumns(series);
        }

        /** The series of {@code row}: its value of each series column, joined; {@code null} if it has none of them. */
        public Object seriesOf(java.util.Map<String, ?> row) {
            return seriesOf(series, row);
        }

        /** The columns a series written as {@code series} is made of. */
        public static List<String> seriesColumns(String series) {
            return List.of(series.split(SERIES_JOIN, -1));
        }

        /**
         * The series of {@code row} under the series written {@code series}: the column's value,
         * or the values of several columns joined by {@link #SERIES_JOIN}, absent ones left out.
         */
        public static Object seriesOf(String series, java.util.Map<String, ?> row) {
            if (!series.contains(SERIES_JOIN)) {
                return row.get(series);
            }
            StringBuilder b = new StringBuilder();
            for (String c : seriesColumns(series)) {
                Object v = row.get(c);
                if (v != null && !String.valueOf(v).isEmpty()) {
                    b.append(b.isEmpty() ? "" : SERIES_JOIN).append(v);
                }
            }
            return b.isEmpty() ? null : b.toString();
        }
    }

    /**
     * One value or trend the paper publishes.
     *
     * @param id     a name for the entry ({@code [a-z0-9_]+}), by which a profile parameter
     *               calibrated on it names it; or {@code null}
     * @param series the paper's series label ({@code null} for a rank order, which names its series)
     * @param x      the x value in the plot's x units ({@link Long}, {@link Double} or text),
     *               {@link #ALL_X} when the claim holds at every x, or {@code null} when the spec
     *               gives none
     * @param metric the metric it is a value of
     * @param value  the number, or {@code null} when the seed withholds it or the claim is a trend
     * @param where  where in the seed, or {@code null}
     * @param claim  how ours is checked: a ratio tolerance, a bound or a trend
     */
    public record Reference(String id, String series, Object x, String metric, Double value, String where,
            Claim claim) {
        /** The x of a claim that holds at every x of the plot. */
        public static final String ALL_X = "all";

        /** A measured value with the default tolerance. */
        public Reference(String series, Object x, String metric, Double value, String where) {
            this(null, series, x, metric, value, where, Claim.Ratio.of(Claim.Kind.MEASURED));
        }

        /** Whether the seed withholds the number (we print ours only). */
        public boolean withheld() {
            return value == null && !(claim instanceof Claim.Trend);
        }

        /** Whether the claim is about every x of the plot. */
        public boolean allX() {
            return ALL_X.equals(x);
        }

        /** This entry with another series label (a paper label mapped to our series). */
        public Reference withSeries(String s) {
            return new Reference(id, s, x, metric, value, where, claim);
        }
    }

    /** Whether the spec has unmet prerequisites and cannot be reproduced yet. */
    public boolean runnable() {
        return requires.isEmpty();
    }

    /** The axis with this key or column name, or {@code null}. */
    public Axis axis(String keyOrColumn) {
        for (Axis a : grid) {
            if (a.key().equals(keyOrColumn) || a.column().equals(keyOrColumn)) {
                return a;
            }
        }
        return null;
    }

    /**
     * The parameter columns every row of this experiment has, in row order: the identity
     * columns, the workload's parameters, then the profile axes' columns.
     */
    public List<String> parameterColumns() {
        List<String> cols = new ArrayList<>(List.of("experiment", "point", "repetition", "workload", "policy",
                "profile", "seed"));
        cols.addAll(workload.parameterNames());
        for (Axis a : grid) {
            if (a.kind() == AxisKind.PROFILE) {
                cols.add(a.column());
            }
        }
        return cols;
    }

    /**
     * This spec as {@code --quick} runs it: the quick repetitions, and each quick axis replacing
     * the grid axis with its key (in place) or joining the grid at its end.
     */
    public ExperimentSpec quickened() {
        if (quick == null) {
            return this;
        }
        List<Axis> axes = new ArrayList<>(grid);
        for (Axis q : quick.grid()) {
            int at = indexOf(axes, q.key());
            if (at >= 0) {
                axes.set(at, q);
            } else {
                axes.add(q);
            }
        }
        int reps = quick.repetitions() > 0 ? quick.repetitions() : repetitions;
        return new ExperimentSpec(file, id, title, paper, where, requires, workload, policies, profileRef, profile, seed,
                reps, axes, null, metrics, plot, reference, derived, seriesLabels, expectedFailures, designCheck);
    }

    /** This spec with other axes, seed and repetitions (for {@code --set}). */
    ExperimentSpec with(List<Axis> axes, long newSeed, int newRepetitions) {
        return new ExperimentSpec(file, id, title, paper, where, requires, workload, policies, profileRef, profile,
                newSeed, newRepetitions, axes, quick, metrics, plot, reference, derived, seriesLabels, expectedFailures, designCheck);
    }

    /**
     * This spec under other policies and another id (what {@code compare} runs: one experiment
     * under every policy, written apart from the experiment's own results).
     */
    public ExperimentSpec withPolicies(String newId, List<String> newPolicies) {
        return new ExperimentSpec(file, newId, title, paper, where, requires, workload, newPolicies, profileRef, profile,
                seed, repetitions, grid, quick, metrics, plot, reference, derived, seriesLabels, expectedFailures, designCheck);
    }

    /** This spec drawn with another plot ({@code compare} draws one series per policy under one scheme). */
    public ExperimentSpec withPlot(Plot newPlot) {
        return new ExperimentSpec(file, id, title, paper, where, requires, workload, policies, profileRef, profile,
                seed, repetitions, grid, quick, metrics, newPlot, reference, derived, seriesLabels, expectedFailures, designCheck);
    }

    static int indexOf(List<Axis> axes, String key) {
        for (int i = 0; i < axes.size(); i++) {
            if (axes.get(i).key().equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
