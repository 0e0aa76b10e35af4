package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileOverride;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.AxisKind;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.SchemeDescriptor;
import org.pagefabric.workload.SchemeRegistry;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadParameter;

/**
 * Turns a spec into the ordered list of runs: the cartesian product of the grid axes in the
 * order written (the first axis varies slowest), then the policies, then the repetitions
 * (seed, seed+1, ...). For a workload with schemes a grid point runs only under the policies
 * that give its scheme the registration it needs ({@link SchemeDescriptor#needs}): the
 * {@code aa} scheme under {@code aa-poll} and {@code aa-sp}, {@code rma} under {@code pin-all}.
 * The order is a pure function of the spec, so row {@code i} is the same run whatever the
 * thread count. Also applies {@code --quick} and {@code --set} to a spec.
 */
public final class Grid {
    /** The file name errors about {@code --set} values use. */
    public static final String SET = "--set";

    private Grid() {
    }

    /**
     * The spec as the options make it: {@code --quick} first, then each {@code --set key=value}
     * (a grid key, set to the one value; or {@code seed} or {@code repetitions}).
     *
     * @throws SpecException naming {@code --set} and the key if a key or value is bad
     */
    public static ExperimentSpec effective(ExperimentSpec spec, boolean quick, Map<String, String> sets) {
        ExperimentSpec s = quick ? spec.quickened() : spec;
        List<Axis> axes = new ArrayList<>(s.grid());
        long seed = s.seed();
        int repetitions = s.repetitions();
        GridReader reader = GridReader.forOverrides(SET);
        for (Map.Entry<String, String> e : sets.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            switch (key) {
                case "seed" -> seed = parse(key, value, 0, Long.MAX_VALUE / 2);
                case "repetitions" -> repetitions = (int) parse(key, value, 1, SpecReader.MAX_REPETITIONS);
                default -> {
                    Axis a = reader.axis(key, List.of(value), List.of(0), 0, "", s.workload(), s.profile());
                    int at = ExperimentSpec.indexOf(axes, key);
                    if (at >= 0) {
                        axes.set(at, a);
                    } else {
                        axes.add(a);
                    }
                }
            }
        }
        checkRuns(axes, s.policies().size(), repetitions, SET, 0, "grid");
        return s.with(axes, seed, repetitions);
    }

    private static long parse(String key, String value, long min, long max) {
        try {
            long v = Long.parseLong(value.strip());
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below with the valid range
        }
        throw new SpecException(SET, 0, key, "'" + value + "' is not valid; a whole number from " + min + " to " + max);
    }

    /**
     * The most runs one spec may expand to. Each run is a point object held until the rows are
     * written, so a grid far larger would exhaust the heap before the first point ran; a study
     * larger than this is several specs, or shards of one.
     */
    public static final long MAX_RUNS = 100_000;

    /**
     * The number of runs a grid makes under {@code policies} policies and {@code repetitions}
     * repetitions, counted without expanding it, saturating at {@link Long#MAX_VALUE}.
     */
    static long runs(List<Axis> grid, int policies, int repetitions) {
        long n = Math.max(1, policies) * (long) Math.max(1, repetitions);
        for (Axis a : grid) {
            n = a.values().isEmpty() ? 0 : n > Long.MAX_VALUE / a.values().size() ? Long.MAX_VALUE
                    : n * a.values().size();
        }
        return n;
    }

    /**
     * Refuses a grid whose runs exceed {@link #MAX_RUNS}, before anything is expanded.
     *
     * @param file  the file errors name
     * @param line  the line of the grid, or 0
     * @param field {@code grid}, {@code quick.grid} or {@code --set}
     * @throws SpecException saying how many runs it makes, from what, and the limit
     */
    static void checkRuns(List<Axis> grid, int policies, int repetitions, String file, int line, String field) {
        long runs = runs(grid, policies, repetitions);
        if (runs > MAX_RUNS) {
            StringBuilder from = new StringBuilder();
            for (Axis a : grid) {
                from.append(a.values().size()).append(" ").append(a.key()).append(" x ");
            }
            from.append(policies).append(" policies x ").append(repetitions).append(" repetitions");
            throw new SpecException(file, line, field, "expands to " + (runs == Long.MAX_VALUE ? "more than "
                    + Long.MAX_VALUE : runs) + " runs (" + from + "); at most " + MAX_RUNS
                    + " runs per spec: split it into several specs or fewer values");
        }
    }

    /** Every run of the spec, in run order. */
    public static List<ExperimentPoint> expand(ExperimentSpec spec) {
        return expand(spec, java.util.function.UnaryOperator.identity());
    }

    /**
     * Every run of the spec, in run order, each on its profile as {@code vary} makes it: the
     * spec's profile, or each profile a {@code profile} axis names, goes through {@code vary}
     * once before the grid's profile values are applied, so a grid value always wins.
     */
    public static List<ExperimentPoint> expand(ExperimentSpec spec, java.util.function.UnaryOperator<Profile> vary) {
        List<Axis> axes = spec.grid();
        long combinations = runs(axes, 1, 1);
        checkRuns(axes, spec.policies().size(), spec.repetitions(), spec.file(), 0, "grid");
        long total = runs(axes, spec.policies().size(), spec.repetitions());
        List<ExperimentPoint> out = new ArrayList<>((int) total);
        int[] digit = new int[axes.size()];
        // each profile a 'profile' axis names, resolved once (bundled ones are cached anyway)
        Map<String, Profile> profiles = new java.util.HashMap<>();
        int point = 0;
        for (long c = 0; c < combinations; c++) {
            // Mixed-radix counter with the last axis fastest: the first axis written varies slowest.
            long rest = c;
            for (int i = axes.size() - 1; i >= 0; i--) {
                int n = axes.get(i).values().size();
                digit[i] = (int) (rest % n);
                rest /= n;
            }
            Profile base = profiles.computeIfAbsent("", k -> vary.apply(spec.profile()));
            Map<String, Object> workloadValues = new LinkedHashMap<>();
            Map<String, String> profileValues = new LinkedHashMap<>();
            List<ProfileOverride> overrides = new ArrayList<>();
            StringBuilder label = new StringBuilder();
            for (int i = 0; i < axes.size(); i++) {
                Axis a = axes.get(i);
                Object v = a.values().get(digit[i]);
                if (a.kind() == AxisKind.WORKLOAD) {
                    workloadValues.put(a.key(), v);
                } else if (a.kind() == AxisKind.PROFILE_NAME) {
                    // a profile axis's names are never empty, so "" keeps the spec's own profile
                    base = profiles.computeIfAbsent((String) v, k -> vary.apply(ProfileRegistry.resolve(k)));
                } else {
                    profileValues.put(a.key(), (String) v);
                    overrides.add(new ProfileOverride(a.key(), (String) v, a.file(), a.line()));
                }
                label.append(a.key()).append('=').append(v).append(' ');
            }
            Profile profile = base.withOverrides(overrides);
            SchemeDescriptor scheme = scheme(spec.workload(), workloadValues);
            for (String policy : spec.policies()) {
                if (scheme != null && !pairs(scheme, policy)) {
                    continue;
                }
                for (int r = 0; r < spec.repetitions(); r++) {
                    out.add(new ExperimentPoint(out.size(), point, r, spec.seed() + r, policy, workloadValues,
                            profileValues, profile, label + "policy=" + policy + " rep=" + r));
                }
                point++;
            }
        }
        return out;
    }

    /**
     * The scheme a point with these grid values runs: the {@code scheme} value, or the
     * parameter's default; {@code null} for a workload without schemes.
     */
    static SchemeDescriptor scheme(Workload workload, Map<String, Object> values) {
        WorkloadParameter p = workload.parameter(StandardParameters.SCHEME);
        if (p == null) {
            return null;
        }
        Object name = values.containsKey(p.name()) ? values.get(p.name()) : p.defaultValue();
        return SchemeRegistry.standard().descriptor((String) name, workload.name());
    }

    /** The schemes the grid runs: the {@code scheme} axis's values, or the default one; empty without schemes. */
    static List<SchemeDescriptor> schemes(Workload workload, List<Axis> grid) {
        WorkloadParameter p = workload.parameter(StandardParameters.SCHEME);
        if (p == null) {
            return List.of();
        }
        List<Object> names = List.of(p.defaultValue());
        for (Axis a : grid) {
            if (a.key().equals(p.name())) {
                names = a.values();
            }
        }
        List<SchemeDescriptor> out = new ArrayList<>();
        for (Object n : names) {
            out.add(SchemeRegistry.standard().descriptor((String) n, workload.name()));
        }
        return out;
    }

    /** Whether {@code policy} gives {@code scheme} the registration it needs. */
    static boolean pairs(SchemeDescriptor scheme, String policy) {
        return scheme.needs().metBy(PolicyRegistry.standard().descriptor(policy));
    }

    /**
     * Whether a point of {@code spec} runs under {@code policy}: always for a workload without
     * schemes, else when the policy gives one of the grid's schemes the registration it needs.
     */
    public static boolean runsUnder(ExperimentSpec spec, String policy) {
        List<SchemeDescriptor> schemes = schemes(spec.workload(), spec.grid());
        return schemes.isEmpty() || schemes.stream().anyMatch(d -> pairs(d, policy));
    }
}
