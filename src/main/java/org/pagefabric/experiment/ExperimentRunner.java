package org.pagefabric.experiment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.AxisKind;
import org.pagefabric.workload.PointRun;

/**
 * Runs an experiment's points on worker threads, each point single-threaded in its own
 * simulation, and collects one row per point in run order. Like
 * {@link org.pagefabric.sim.ParallelRuns}, points are handed out in index order and results
 * stored by index, so the rows do not depend on the thread count; unlike it, a run can be
 * stopped ({@link #cancel()}, or Ctrl-C through {@link #runHandlingInterrupt}) and keeps what
 * finished: workers take no new point, the points in flight finish (a simulation does not poll
 * for interrupts), and since points are taken in order the finished ones are a prefix of the
 * plan.
 *
 * <pre>{@code
 * ExperimentRunner runner = new ExperimentRunner(SpecReader.resolve("part.fig7"),
 *         new ExperimentRunner.Options(threads, quick, true, sets));
 * runner.runHandlingInterrupt(result -> ResultWriter.write(result, outDir));
 * }</pre>
 */
public final class ExperimentRunner {
    /**
     * How to run.
     *
     * @param threads   worker threads, at least 1 (results do not depend on it)
     * @param quick     apply the spec's {@code quick} overrides
     * @param progress  allow a progress bar (shown only on a console and after
     *                  {@link DelayedProgress#DELAY})
     * @param overrides {@code --set key=value} pairs: grid keys, {@code seed}, {@code repetitions}
     */
    public record Options(int threads, boolean quick, boolean progress, Map<String, String> overrides) {
        /** Checks the thread count and copies the overrides. */
        public Options {
            if (threads < 1) {
                throw new IllegalArgumentException("--threads must be at least 1, not " + threads);
            }
            overrides = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        }

        /** One thread per processor, full grid, progress allowed, no overrides. */
        public static Options defaults() {
            return new Options(Runtime.getRuntime().availableProcessors(), false, true, Map.of());
        }
    }

    /** A point threw: a model bug or an impossible configuration; names the point. */
    public static final class PointFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String where;

        /**
         * @param point the point that failed
         * @param cause what it threw
         */
        public PointFailedException(ExperimentPoint point, Throwable cause) {
            super(where(point) + " failed: " + cause, cause);
            this.where = where(point);
        }

        /** The failed point as messages name it: "point N (its grid values)". */
        public String where() {
            return where;
        }

        private static String where(ExperimentPoint p) {
            return "point " + p.index() + " (" + p.label() + ")";
        }
    }

    /** Runs one point into its row; a seam so tests can make points fail or block. */
    @FunctionalInterface
    interface PointFunction {
        /** The row of point {@code p}. */
        Map<String, Object> row(ExperimentPoint p);
    }

    private final ExperimentSpec spec;
    private final Options options;
    private final PointFunction pointFunction;
    // whether points are simulated (not a test's stand-in), so their cost can be estimated
    private final boolean simulated;
    private final List<ExperimentPoint> points;
    // the runs run() runs: every point, or one shard's share
    private volatile List<ExperimentPoint> toRun;
    private volatile boolean cancelled;
    // the pool run() runs in, for cancel() and finished()
    private volatile PointPool pool;
    private volatile PointCache cache;

    /**
     * Applies the options to the spec and expands its grid, so every spec and {@code --set}
     * error comes before anything runs.
     *
     * @throws SpecException for a bad {@code --set} key or value
     */
    public ExperimentRunner(ExperimentSpec spec, Options options) {
        this(spec, options, null, java.util.function.UnaryOperator.identity());
    }

    /**
     * A runner whose points run on profiles {@code vary} derives from the spec's (each
     * {@code profile} axis value's) before the grid's profile values apply: how a sensitivity
     * study moves costs the grid does not set. Rows are what the derived profiles give.
     *
     * @throws SpecException for a bad {@code --set} key or value
     */
    public static ExperimentRunner varying(ExperimentSpec spec, Options options,
            java.util.function.UnaryOperator<org.pagefabric.config.Profile> vary) {
        return new ExperimentRunner(spec, options, null, vary);
    }

    /** A runner whose points run through {@code pointFunction} instead of a simulation (tests). */
    ExperimentRunner(ExperimentSpec spec, Options options, PointFunction pointFunction) {
        this(spec, options, pointFunction, java.util.function.UnaryOperator.identity());
    }

    private ExperimentRunner(ExperimentSpec spec, Options options, PointFunction pointFunction,
            java.util.function.UnaryOperator<org.pagefabric.config.Profile> vary) {
        this.options = Objects.requireNonNull(options, "options");
        this.spec = Grid.effective(spec, options.quick(), options.overrides());
        this.points = Grid.expand(this.spec, Objects.requireNonNull(vary, "vary"));
        if (points.isEmpty()) {
            // only pairing schemes with policies can leave no point: a grid axis has at least one value
            throw new SpecException(this.spec.file(), 0, "policies", "none of " + String.join(", ",
                    this.spec.policies()) + " gives the grid's schemes the registration they need");
        }
        if (pointFunction == null) {
            // Every point's parameters are complete and valid before the first one runs (a trace
            // named nowhere, a value only a later point takes), so bad input is one line, exit 2.
            for (ExperimentPoint p : points) {
                this.spec.workload().check(this.spec.workload().resolve(p.workloadValues()), p.profile());
            }
        }
        this.pointFunction = pointFunction == null ? this::row : pointFunction;
        this.simulated = pointFunction == null;
        this.toRun = points;
    }

    /** Runs {@code spec} with {@code options} (no interrupt handling). */
    public static ExperimentResult run(ExperimentSpec spec, Options options) {
        return new ExperimentRunner(spec, options).run();
    }

    /** The spec as run: quick and {@code --set} applied. */
    public ExperimentSpec spec() {
        return spec;
    }

    /** Every planned point, in run order. */
    public List<ExperimentPoint> points() {
        return points;
    }

    /**
     * Restricts {@link #run()} to one shard's share of the points (see {@link Shard#select}); call
     * before running. The result's rows are then that share's, in run order, and
     * {@code planned} still counts every point of the experiment.
     *
     * @param share the points this shard runs, a subset of {@link #points()} in run order (possibly none)
     * @throws IllegalArgumentException if {@code share} holds a point not planned or out of run order
     */
    public void restrictTo(List<ExperimentPoint> share) {
        int last = -1;
        for (ExperimentPoint p : share) {
            if (p.index() <= last || p.index() >= points.size() || !points.get(p.index()).equals(p)) {
                throw new IllegalArgumentException(spec.id() + ": run " + p.index()
                        + " of a shard's share is not a planned run in run order");
            }
            last = p.index();
        }
        toRun = List.copyOf(share);
    }

    /**
     * Reads finished points from {@code cache} instead of running them, and stores every point
     * that runs there as soon as it finishes (so a killed run loses only the points in flight);
     * call before running. Rows read back equal the rows computed, types included.
     */
    public void useCache(PointCache cache) {
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    /**
     * Stops the run cleanly: no new point starts; points in flight finish and are kept. Safe
     * from any thread, any number of times.
     */
    public void cancel() {
        cancelled = true;
        PointPool p = pool;
        if (p != null) {
            p.cancel();
        }
    }

    /** How many points have finished so far. */
    public int finished() {
        PointPool p = pool;
        return p == null ? 0 : p.finished();
    }

    /**
     * Runs every point (or until {@link #cancel()}), on {@code options.threads()} workers, in run
     * order, each point starting only when its estimated heap fits beside the running ones (see
     * {@link PointPool}).
     *
     * @return the rows of the finished points in run order; {@code complete} is false if stopped
     * @throws PointFailedException if a point threw; the lowest failing index is reported
     */
    public ExperimentResult run() {
        PointPool p = new PointPool(List.of(this), Math.max(1, options.threads()), PointPool.Order.RUN_ORDER,
                spec.id());
        pool = p;
        if (cancelled) {
            p.cancel(); // a cancel() that came before the pool existed
        }
        ExperimentResult[] result = new ExperimentResult[1];
        p.run(options.progress(), (k, r, ran) -> result[0] = r);
        return result[0];
    }

    /**
     * Runs like {@link #run()}, but turns Ctrl-C (or SIGTERM) into a clean stop: the run is
     * cancelled, {@code finish} handles the partial result (writes it, with the manifest saying
     * {@code complete: false}) in a JVM that is not shutting down, and no stack trace is shown.
     * Where no signal handler can be installed, a shutdown hook cancels the run instead and holds
     * the JVM until {@code finish} is done.
     *
     * @param finish what to do with the result (write it, print it); called exactly once
     * @return the result
     */
    public ExperimentResult runHandlingInterrupt(Consumer<ExperimentResult> finish) {
        return StopSignals.handling(this::cancel, this::run, finish);
    }

    /** Point {@code p}'s row as the cache holds it, or {@code null} (no cache, or not finished before). */
    Map<String, Object> cached(ExperimentPoint p) {
        PointCache c = cache;
        return c == null ? null : c.find(PointCache.key(spec, p));
    }

    /** Runs point {@code p} into its row and stores it in the cache, if there is one. */
    Map<String, Object> compute(ExperimentPoint p) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        Map<String, Object> row = pointFunction.row(p);
        PointCache c = cache;
        if (c != null) {
            double cost = simulated ? CostModel.bundled().cpuSeconds(spec.workload(), p) : 0;
            c.store(PointCache.key(spec, p), p, row, new PointCache.Timing(
                    (threads.getCurrentThreadCpuTime() - cpu0) / 1e9, (System.nanoTime() - wall0) / 1e9, cost));
        }
        return row;
    }

    /** The points {@link #run()} runs: every point, or the shard's share. */
    List<ExperimentPoint> toRun() {
        return toRun;
    }

    /**
     * The result of the points to run whose rows are in {@code rows} (at their position in
     * {@link #toRun()}; {@code null} for a point that did not finish), rows in run order.
     */
    ExperimentResult result(Map<String, Object>[] rows) {
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        for (Map<String, Object> r : rows) {
            if (r != null) {
                out.add(r);
            }
        }
        return new ExperimentResult(spec, options.quick(), options.overrides(), points.size(), out,
                out.size() == rows.length);
    }

    /**
     * Runs one point and builds its row: experiment, point, repetition, then the point run's
     * identity and workload-parameter columns, the profile axes' values, then the metrics.
     */
    Map<String, Object> row(ExperimentPoint p) {
        Map<String, Object> run = CandidateSearch.row(p.profile(), p.policy(), spec.workload(), p.workloadValues(),
                p.seed());
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("experiment", spec.id());
        row.put("point", p.point());
        row.put("repetition", p.repetition());
        List<String> metrics = spec.workload().metrics();
        run.forEach((k, v) -> {
            if (!metrics.contains(k)) {
                row.put(k, v);
            }
        });
        addProfileColumns(p, row);
        run.forEach((k, v) -> {
            if (metrics.contains(k)) {
                row.put(k, v);
            }
        });
        return row;
    }

    /** The profile axes' values as the derived profile holds them, in canonical units. */
    private void addProfileColumns(ExperimentPoint p, Map<String, Object> row) {
        for (Axis a : spec.grid()) {
            if (a.kind() != AxisKind.PROFILE) {
                continue;
            }
            Parameter param = ParameterRegistry.find(a.key()).orElseThrow();
            ResolvedSetting s = p.profile().setting(param);
            Object v;
            if (s.canonical() == null) {
                v = param.dimension() == org.pagefabric.config.Dimension.BOOLEAN
                        ? Boolean.valueOf(s.text()) : s.text();
            } else if (param.dimension().integral()) {
                v = s.canonical().longValueExact();
            } else {
                v = s.canonical().doubleValue();
            }
            row.put(a.column(), v);
        }
    }
}
