package org.pagefabric.experiment;

import com.fasterxml.jackson.core.JsonToken;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileOverride;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.AxisKind;
import org.pagefabric.experiment.YamlNode.ListNode;
import org.pagefabric.experiment.YamlNode.MapNode;
import org.pagefabric.experiment.YamlNode.Scalar;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.SchemeDescriptor;
import org.pagefabric.workload.SchemeRegistry;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadParameter;

/**
 * Reads the parts of a spec that say which points run: the {@code grid} and {@code quick.grid}
 * axes (workload parameters, profile parameters, profiles), the check that schemes and policies
 * pair, and the {@code expected_failures} that name grid points.
 *
 * @param fields  the spec's field readers
 * @param baseDir the directory relative profile paths start from, or null
 * @param bundled whether the spec is bundled (it may name only bundled profiles)
 */
record GridReader(SpecFields fields, Path baseDir, boolean bundled) {
    private static final List<String> EXPECTED_FAILURE_FIELDS = List.of("when", "reason", "why");
    private static final List<String> QUICK_FIELDS = List.of("repetitions", "grid");

    /** A reader whose errors name {@code source} (e.g. {@code --set}), for axes given outside a file. */
    static GridReader forOverrides(String source) {
        return new GridReader(new SpecFields(source), null, false);
    }

    /**
     * The spec's {@code profile}: a bundled profile's name as written, or a path made relative to
     * the spec's directory.
     */
    String profileReference(String ref, MapNode top) {
        if (!isPath(ref)) {
            return ref;
        }
        if (bundled) {
            throw fields.error(top, "profile", "a bundled spec must name a bundled profile, not the path '" + ref + "'");
        }
        return resolved(ref);
    }

    /** Whether a profile reference is a file's path rather than a bundled profile's name. */
    private static boolean isPath(String ref) {
        return ref.contains("/") || ref.endsWith(".yaml") || ref.endsWith(".yml");
    }

    /** A profile path, relative to the spec's directory unless absolute, normalised. */
    private String resolved(String path) {
        Path p = Path.of(path);
        return (p.isAbsolute() || baseDir == null ? p : baseDir.resolve(p)).normalize().toString();
    }

    List<Axis> grid(YamlNode node, String field, Workload workload, Profile profile) {
        if (node == null || node instanceof Scalar s && s.token() == JsonToken.VALUE_NULL) {
            return List.of();
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(fields.file, node.line(), field, "must be a mapping from parameter names to a value or a"
                    + " list of values, not a " + node.kind());
        }
        List<Axis> axes = new ArrayList<>();
        for (Map.Entry<String, YamlNode> e : m.entries().entrySet()) {
            String key = e.getKey();
            int keyLine = m.keyLines().get(key);
            YamlNode v = e.getValue();
            List<YamlNode> items;
            if (v instanceof ListNode l) {
                if (l.items().isEmpty()) {
                    throw new SpecException(fields.file, keyLine, field + "." + key,
                            "an empty list sweeps nothing; give at least one value");
                }
                items = l.items();
            } else {
                items = List.of(v);
            }
            List<Object> values = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (YamlNode item : items) {
                if (!(item instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
                    throw new SpecException(fields.file, item.line(), field + "." + key,
                            "must be a value or a list of values, not a " + item.kind());
                }
                if (texts.contains(s.text())) {
                    throw new SpecException(fields.file, s.line(), field + "." + key, "value " + s.text() + " appears twice");
                }
                texts.add(s.text());
                values.add(s.value());
            }
            axes.add(axis(key, values, items.stream().map(YamlNode::line).toList(), keyLine, field, workload, profile));
        }
        return axes;
    }

    /**
     * Builds and checks one axis: a workload parameter's values are coerced to their stored
     * form; a profile parameter's values are applied to the profile once each, so a bad unit or
     * an out-of-range value fails here with the profile's own message.
     */
    Axis axis(String key, List<Object> values, List<Integer> lines, int keyLine, String field, Workload workload,
              Profile profile) {
        String where = field.isEmpty() ? key : field + "." + key;
        if (key.equals(ExperimentSpec.PROFILE_KEY)) {
            return profileAxis(values, lines, keyLine, where);
        }
        WorkloadParameter wp = workload.parameter(key);
        if (wp != null) {
            List<Object> coerced = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                try {
                    coerced.add(workload.coerce(wp, values.get(i)));
                } catch (IllegalArgumentException e) {
                    throw new SpecException(fields.file, lines.get(i), where, e.getMessage());
                }
            }
            return new Axis(key, AxisKind.WORKLOAD, key, coerced, fields.file, keyLine);
        }
        Parameter p = ParameterRegistry.find(key).orElse(null);
        if (p == null) {
            throw new SpecException(fields.file, keyLine, where, "unknown grid key; workload '" + workload.name() + "' takes: "
                    + String.join(", ", workload.parameterNames()) + "; closest profile parameters: "
                    + String.join(", ", ParameterRegistry.closestNames(key, 3)));
        }
        List<Object> texts = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String text = String.valueOf(values.get(i));
            try {
                profile.withOverrides(List.of(new ProfileOverride(key, text, fields.file, lines.get(i))));
            } catch (ProfileException e) {
                throw new SpecException(fields.file, lines.get(i), where, e.problem());
            }
            texts.add(text);
        }
        return new Axis(key, AxisKind.PROFILE, profileColumn(p), texts, fields.file, keyLine);
    }

    /**
     * The grid key {@code profile}: each value a bundled profile name or a path relative to the
     * spec, resolved here so that a missing or broken profile fails before anything runs.
     */
    Axis profileAxis(List<Object> values, List<Integer> lines, int keyLine, String where) {
        List<Object> refs = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String text = String.valueOf(values.get(i)).strip();
            int line = lines.get(i);
            String ref = text;
            if (isPath(text)) {
                if (bundled) {
                    throw new SpecException(fields.file, line, where, "a bundled spec must name bundled profiles, not the path '"
                            + text + "'; valid: " + String.join(", ", ProfileRegistry.bundledNames()));
                }
                ref = resolved(text);
            } else if (!ProfileRegistry.bundledNames().contains(text)) {
                throw new SpecException(fields.file, line, where, "unknown profile '" + text + "'; valid: "
                        + String.join(", ", ProfileRegistry.bundledNames()) + ", or a path to a profile .yaml");
            }
            try {
                ProfileRegistry.resolve(ref);
            } catch (ProfileException e) {
                throw new SpecException(fields.file, line, where, "profile '" + text + "': " + e.getMessage());
            }
            if (refs.contains(ref)) {
                throw new SpecException(fields.file, line, where, "profile " + text + " appears twice");
            }
            refs.add(ref);
        }
        return new Axis(ExperimentSpec.PROFILE_KEY, AxisKind.PROFILE_NAME, ExperimentSpec.PROFILE_KEY, refs, fields.file,
                keyLine);
    }

    /** A profile parameter's column: its name, with the canonical unit appended when it has one. */
    static String profileColumn(Parameter p) {
        return switch (p.dimension()) {
            case TIME, SIZE, FREQUENCY -> p.name() + "_" + p.dimension().canonicalUnit();
            case BANDWIDTH -> p.name() + "_Bps";
            default -> p.name();
        };
    }

    ExperimentSpec.Quick quick(YamlNode node, Workload workload, Profile profile) {
        if (node == null) {
            return null;
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(fields.file, node.line(), "quick", "must be a mapping with fields "
                    + String.join(", ", QUICK_FIELDS) + ", not a " + node.kind());
        }
        fields.checkFields(m, "quick.", QUICK_FIELDS);
        int reps = m.entries().containsKey("repetitions") ? (int) fields.integer(m, "repetitions", 1, SpecReader.MAX_REPETITIONS, "quick.") : 0;
        List<Axis> grid = grid(m.entries().get("grid"), "quick.grid", workload, profile);
        Grid.checkRuns(grid, 1, Math.max(1, reps), fields.file, m.keyLines().getOrDefault("grid", m.line()), "quick.grid");
        return new ExperimentSpec.Quick(reps, grid);
    }

    /**
     * For a workload with schemes: every scheme the grid names runs under at least one of the
     * policies, and every policy gives at least one of them the registration it needs, so that
     * pairing schemes with policies ({@link Grid#expand}) leaves nothing out by mistake.
     */
    void checkSchemes(MapNode top, Workload workload, List<Axis> grid, List<String> policies) {
        List<SchemeDescriptor> schemes = Grid.schemes(workload, grid);
        if (schemes.isEmpty()) {
            return;
        }
        Axis axis = grid.stream().filter(a -> a.key().equals(StandardParameters.SCHEME)).findFirst().orElse(null);
        for (SchemeDescriptor d : schemes) {
            if (policies.stream().noneMatch(p -> Grid.pairs(d, p))) {
                String problem = "scheme '" + d.name() + "' needs " + d.needs().phrase() + "; policies lists none"
                        + " (those that qualify: " + String.join(", ", SchemeRegistry.policiesFor(d,
                        PolicyRegistry.standard())) + ")";
                throw axis != null ? new SpecException(fields.file, axis.line(), "grid.scheme", problem)
                        : fields.error(top, "policies", problem);
            }
        }
        for (String p : policies) {
            if (schemes.stream().noneMatch(d -> Grid.pairs(d, p))) {
                throw fields.error(top, "policies", "policy '" + p + "' gives none of the schemes "
                        + String.join(", ", schemes.stream().map(SchemeDescriptor::name).toList())
                        + " the registration it needs");
            }
        }
    }

    /**
     * The {@code expected_failures} list: each {@code {when: {KEY: VALUE | [VALUES], ...}, reason,
     * why}}, a key a grid key (of the grid or the quick grid) or {@code policy}, each value one the
     * grid (or the policies) has.
     */
    List<ExpectedFailure> expectedFailures(YamlNode node, List<Axis> grid, ExperimentSpec.Quick quick,
            List<String> policies) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw new SpecException(fields.file, node.line(), "expected_failures", "must be a list of {when, reason, why},"
                    + " not a " + node.kind());
        }
        List<ExpectedFailure> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String f = "expected_failures[" + i + "].";
            if (!(item instanceof MapNode m)) {
                throw new SpecException(fields.file, item.line(), "expected_failures[" + i + "]", "must be a mapping {when,"
                        + " reason, why}, not a " + item.kind());
            }
            fields.checkFields(m, f, EXPECTED_FAILURE_FIELDS);
            for (String required : EXPECTED_FAILURE_FIELDS) {
                if (!m.entries().containsKey(required)) {
                    throw new SpecException(fields.file, m.line(), f + required, "missing; an expected failure needs when"
                            + " (the rows), reason (text of their reason column) and why");
                }
            }
            if (!(m.entries().get("when") instanceof MapNode when)) {
                throw new SpecException(fields.file, m.keyLines().get("when"), f + "when", "must be a mapping of grid keys"
                        + " (or policy) to their values, e.g. {policy: pin-all, iterations: 400}");
            }
            java.util.Map<String, List<Object>> match = new java.util.LinkedHashMap<>();
            for (java.util.Map.Entry<String, YamlNode> e : when.entries().entrySet()) {
                String key = e.getKey();
                List<Object> valid = new ArrayList<>();
                if (key.equals("policy")) {
                    valid.addAll(policies);
                } else {
                    for (Axis a : grid) {
                        if (a.key().equals(key)) {
                            valid.addAll(a.values());
                        }
                    }
                    if (quick != null) {
                        for (Axis a : quick.grid()) {
                            if (a.key().equals(key)) {
                                valid.addAll(a.values());
                            }
                        }
                    }
                }
                int line = when.keyLines().get(key);
                if (valid.isEmpty()) {
                    List<String> keys = new ArrayList<>(List.of("policy"));
                    grid.forEach(a -> keys.add(a.key()));
                    throw new SpecException(fields.file, line, f + "when." + key, "not a grid key; valid: "
                            + String.join(", ", keys));
                }
                List<YamlNode> given = e.getValue() instanceof ListNode l ? l.items() : List.of(e.getValue());
                List<Object> values = new ArrayList<>();
                for (YamlNode v : given) {
                    if (!(v instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
                        throw new SpecException(fields.file, line, f + "when." + key, "must be a value or a list of values");
                    }
                    Object match1 = valid.stream().filter(w -> ReferenceComparison.same(w, s.text())).findFirst()
                            .orElse(null);
                    if (match1 == null) {
                        throw new SpecException(fields.file, line, f + "when." + key, "'" + s.text() + "' is not a value of "
                                + key + "; valid: " + String.join(", ", valid.stream().map(String::valueOf).toList()));
                    }
                    values.add(match1);
                }
                match.put(key, values);
            }
            String reason = fields.text(m, "reason", f);
            String why = fields.text(m, "why", f);
            if (reason.isBlank() || why.isBlank()) {
                throw new SpecException(fields.file, m.line(), f + (reason.isBlank() ? "reason" : "why"), "is empty");
            }
            out.add(new ExpectedFailure(match, reason, why));
        }
        return out;
    }
}
