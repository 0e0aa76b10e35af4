package org.pagefabric.experiment.sensitivity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterReads;
import org.pagefabric.config.PlausibleRange;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.PointCache;
import org.pagefabric.experiment.ReferenceComparison;

/**
 * How far an experiment's verdicts rest on the values no source pins down. A nominal run on
 * profiles that note every parameter read tells which parameters matter; of those, each one the
 * grid does not set and whose plausible range ({@link PlausibleRange}) has a width is varied:
 * alone to the low and the high end of its range (the others nominal), then all together at the
 * samples of a Latin hypercube. Every run is the whole experiment, compared with the paper as
 * {@code reproduce} compares it. Runs are deterministic and the hypercube is a function of the
 * seed, so the same seed gives the same bands whatever the thread count.
 *
 * <pre>{@code
 * SensitivityStudy study = SensitivityStudy.prepare(spec, new SensitivityStudy.Options(true, Map.of(), 8, 1, 2, null));
 * SensitivityResult result = study.run(label -> System.err.println(label));
 * }</pre>
 */
public final class SensitivityStudy {
    /**
     * How to run the study.
     *
     * @param quick   apply the spec's {@code quick} section to every run
     * @param sets    {@code --set} values applied to every run
     * @param samples how many Latin-hypercube samples, at least 0
     * @param seed    the hypercube's seed
     * @param threads worker threads per run; results do not depend on it
     * @param cache   where varied runs' points are kept and read back, or {@code null}
     */
    public record Options(boolean quick, Map<String, String> sets, int samples, long seed, int threads,
            PointCache cache) {
        /** Checks the counts and copies the sets. */
        public Options {
            if (samples < 0 || samples > MAX_SAMPLES) {
                throw new IllegalArgumentException("--samples must be from 0 to " + MAX_SAMPLES + ", not " + samples);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("--threads must be at least 1, not " + threads);
            }
            sets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sets));
        }
    }

    /** The most hypercube samples a study takes: each is a whole run of the experiment. */
    public static final int MAX_SAMPLES = 1000;

    private final ExperimentSpec spec;
    private final Options options;
    private final int points;
    private final List<VariedParameter> parameters;
    private final StudyRun nominal;

    private SensitivityStudy(ExperimentSpec spec, Options options, int points, List<VariedParameter> parameters,
            StudyRun nominal) {
        this.spec = spec;
        this.options = options;
        this.points = points;
        this.parameters = List.copyOf(parameters);
        this.nominal = nominal;
    }

    /**
     * Runs the experiment once at its nominal values, noting which parameters it reads, and
     * chooses those to vary. Every spec and {@code --set} error comes before anything runs.
     *
     * @throws IllegalArgumentException for a bad spec, {@code --set} or option
     */
    public static SensitivityStudy prepare(ExperimentSpec spec, Options options) {
        ParameterReads reads = new ParameterReads();
        ExperimentRunner runner = ExperimentRunner.varying(spec, runnerOptions(options), p -> p.recording(reads));
        ExperimentResult result = runner.run();
        StudyRun nominal = new StudyRun(StudyRun.Kind.NOMINAL, "nominal", null, compare(result), null);
        return new SensitivityStudy(runner.spec(), options, runner.points().size(),
                choose(runner.spec(), reads), nominal);
    }

    /** The parameters the study varies, by name. */
    public List<VariedParameter> parameters() {
        return parameters;
    }

    /** The runs the whole study makes: the nominal one, two per parameter, and the samples. */
    public int plannedRuns() {
        return 1 + 2 * parameters.size() + options.samples();
    }

    /** The points every run of the experiment has. */
    public int pointsPerRun() {
        return points;
    }

    /** The spec as every run runs it ({@code --quick} and {@code --set} applied). */
    public ExperimentSpec spec() {
        return spec;
    }

    /**
     * Runs the one-at-a-time ends and the hypercube's samples, in that order.
     *
     * @param progress told each run's label before it starts
     */
    public SensitivityResult run(Consumer<String> progress) {
        List<StudyRun> runs = new ArrayList<>();
        runs.add(nominal);
        for (VariedParameter v : parameters) {
            for (StudyRun.Kind end : List.of(StudyRun.Kind.LOW, StudyRun.Kind.HIGH)) {
                String label = v.name() + (end == StudyRun.Kind.LOW ? " low" : " high");
                progress.accept(label);
                Variation at = new Variation(Map.of(v.parameter(), end == StudyRun.Kind.LOW ? 0.0 : 1.0));
                runs.add(varied(end, label, v.name(), at));
            }
        }
        double[][] samples = LatinHypercube.sample(Math.max(1, options.samples()), parameters.size(), options.seed());
        for (int i = 0; i < options.samples(); i++) {
            String label = "sample " + (i + 1);
            progress.accept(label);
            Map<Parameter, Double> at = new LinkedHashMap<>();
            for (int j = 0; j < parameters.size(); j++) {
                at.put(parameters.get(j).parameter(), samples[i][j]);
            }
            runs.add(varied(StudyRun.Kind.SAMPLE, label, null, new Variation(at)));
        }
        return new SensitivityResult(spec, options.quick(), options.sets(), options.samples(), options.seed(),
                parameters, runs);
    }

    private StudyRun varied(StudyRun.Kind kind, String label, String parameter, UnaryOperator<Profile> vary) {
        try {
            ExperimentRunner runner = ExperimentRunner.varying(spec, runnerOptions(options), vary);
            if (options.cache() != null) {
                runner.useCache(options.cache());
            }
            return new StudyRun(kind, label, parameter, compare(runner.run()), null);
        } catch (RuntimeException e) {
            // a value at the end of a plausible range that the model cannot run is a finding, not a crash
            String message = e instanceof ExperimentRunner.PointFailedException f ? f.getMessage() : e.getMessage();
            return new StudyRun(kind, label, parameter, List.of(), message == null ? e.toString() : message);
        }
    }

    private static ExperimentRunner.Options runnerOptions(Options o) {
        return new ExperimentRunner.Options(o.threads(), o.quick(), false, o.sets());
    }

    /**
     * The comparison of a run with its own set-up: under {@code --quick} or {@code --set} the
     * verdicts are those of the reduced set-up, which is what a quick study can say.
     */
    private static List<Map<String, Object>> compare(ExperimentResult result) {
        return ReferenceComparison.compare(result.spec(), result);
    }

    /**
     * The parameters worth varying: those {@code reads} saw read, not set by the spec's grid, with
     * a plausible range of some width in a profile the spec runs on; by name.
     *
     * @param spec  the spec as run ({@code --quick} and {@code --set} applied)
     * @param reads what its nominal run read
     */
    public static List<VariedParameter> choose(ExperimentSpec spec, ParameterReads reads) {
        Set<String> gridKeys = new LinkedHashSet<>();
        spec.grid().forEach(a -> gridKeys.add(a.key()));
        List<Profile> profiles = new ArrayList<>();
        profiles.add(spec.profile());
        ExperimentSpec.Axis names = spec.axis(ExperimentSpec.PROFILE_KEY);
        if (names != null && names.kind() == ExperimentSpec.AxisKind.PROFILE_NAME) {
            profiles.clear();
            names.values().forEach(v -> profiles.add(ProfileRegistry.resolve(String.valueOf(v))));
        }
        List<VariedParameter> out = new ArrayList<>();
        for (Parameter p : reads.sorted()) {
            if (gridKeys.contains(p.name())) {
                continue;
            }
            for (Profile profile : profiles) {
                ResolvedSetting s = profile.settings().stream().filter(x -> x.parameter() == p).findFirst()
                        .orElseThrow();
                PlausibleRange r = s.plausible();
                if (r != null && r.varies()) {
                    out.add(new VariedParameter(p, s.written(), r, s.source()));
                    break;
                }
            }
        }
        return out;
    }
}
