package org.pagefabric.experiment;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.pagefabric.config.Decimals;
import org.pagefabric.config.NameSuggestions;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileOverride;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.TextFiles;
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
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Reads experiment specs (the format of {@code docs/SPEC-FORMAT.md}) from a file or from the
 * bundled {@code experiments/} resources, validates everything that can be checked before a run
 * (names, grid keys and values, metrics, plot axes, references) and fills in defaults. Every
 * problem is a {@link SpecException} naming the file, line, field and the valid values: a bad
 * spec must fail in a second, not after an hour of simulation.
 */
public final class SpecReader {
    /** Top-level fields, in the order the format documents them. */
    static final List<String> FIELDS = List.of("id", "title", "paper", "where", "requires", "design_check", "workload", "policies",
            "profile", "seed", "repetitions", "grid", "quick", "metrics", "plot", "reference", "derived", "series_labels",
            "expected_failures");
    private static final List<String> EXPECTED_FAILURE_FIELDS = List.of("when", "reason", "why");
    private static final List<String> QUICK_FIELDS = List.of("repetitions", "grid");
    private static final List<String> PLOT_FIELDS = List.of("x", "y", "series", "logx", "logy", "title");
    private static final List<String> REFERENCE_FIELDS = List.of("id", "series", "x", "metric", "value", "where",
            "kind", "tolerance", "reason", "shape", "order", "x_min", "x_max");
    private static final List<String> DERIVED_FIELDS = List.of("name", "metric", "series", "over", "over_x", "pick",
            "x_max", "at_crossing", "as");
    /**
     * A spec id names its output directory, so it must be one safe path component: not {@code .}
     * or {@code ..}, no slash, no control character, starting with a letter or digit.
     */
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,99}");
    private static final Pattern PAPER = Pattern.compile("\\d{3}");
    /** A bound that catches typos (a million seeds) while allowing any real study. */
    static final int MAX_REPETITIONS = 10_000;
    /** The file name of a spec that {@code run} or {@code compare} builds from its options. */
    public static final String COMMAND_LINE = "(command line)";
    private static final String DIR = "experiments/";
    private static final String INDEX = DIR + "index.txt";

    private final String file;
    private final Path baseDir;
    private final boolean bundled;
    /** Names of the derived metrics of the spec being read, which references may use. */
    private List<String> derivedNames = List.of();

    private SpecReader(String file, Path baseDir, boolean bundled) {
        this.file = file;
        this.baseDir = baseDir;
        this.bundled = bundled;
    }

    /**
     * Reads a spec file; a profile path in it is relative to the file's directory.
     *
     * @throws SpecException if the file is missing, malformed or invalid
     */
    public static ExperimentSpec read(Path path) {
        String text;
        try {
            text = TextFiles.read(path);
        } catch (TextFiles.Unreadable e) {
            throw new SpecException(path.toString(), 0, null, e.getMessage());
        } catch (NoSuchFileException e) {
            throw new SpecException(path.toString(), 0, null, "spec file does not exist");
        } catch (IOException e) {
            throw new SpecException(path.toString(), 0, null, "cannot be read: " + e.getMessage());
        }
        Path dir = path.toAbsolutePath().getParent();
        return new SpecReader(path.toString(), dir, false).spec(text);
    }

    /** A reader whose errors name {@code source} (e.g. {@code --set}), for axes given outside a file. */
    static SpecReader forOverrides(String source) {
        return new SpecReader(source, null, false);
    }

    /**
     * Reads spec text (tests, tools); profile paths are relative to {@code baseDir}.
     *
     * @param file    the name errors use
     * @param text    the YAML
     * @param baseDir the directory relative profile paths start from
     */
    public static ExperimentSpec parse(String file, String text, Path baseDir) {
        return new SpecReader(file, baseDir, false).spec(text);
    }

    /**
     * A bundled spec by id, from {@code experiments/<id>.yaml} on the class path.
     *
     * @throws SpecException if there is no such bundled spec (listing the closest ids) or it is invalid
     */
    public static ExperimentSpec bundled(String id) {
        String path = DIR + id + ".yaml";
        try (InputStream in = SpecReader.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                List<String> ids = bundledIds();
                throw new SpecException("(command line)", 0, null, "no bundled experiment '" + id + "'"
                        + (ids.isEmpty() ? "; none are bundled yet" : "; closest: "
                        + String.join(", ", NameSuggestions.closest(id, ids, 3)) + " (bundled: " + String.join(", ", ids)
                        + ")") + "; or give a path to a .yaml spec");
            }
            ExperimentSpec spec = new SpecReader(path, null, true).spec(new String(in.readAllBytes(),
                    StandardCharsets.UTF_8));
            if (!spec.id().equals(id)) {
                throw new SpecException(path, 1, "id", "is '" + spec.id()
                        + "' but a bundled spec's id must match its file name '" + id + "'");
            }
            return spec;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ids of the bundled specs, in the order of {@code experiments/index.txt}; empty if there is no index. */
    public static List<String> bundledIds() {
        try (InputStream in = SpecReader.class.getClassLoader().getResourceAsStream(INDEX)) {
            if (in == null) {
                return List.of();
            }
            List<String> ids = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    ids.add(s);
                }
            }
            return List.copyOf(ids);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads a spec if {@code idOrPath} looks like a path (contains a slash or ends in
     * {@code .yaml}/{@code .yml}), otherwise a bundled spec: what {@code reproduce ID|FILE} takes.
     */
    public static ExperimentSpec resolve(String idOrPath) {
        boolean path = idOrPath.contains("/") || idOrPath.endsWith(".yaml") || idOrPath.endsWith(".yml");
        return path ? read(Path.of(idOrPath)) : bundled(idOrPath);
    }

    private ExperimentSpec spec(String text) {
        YamlNode root = YamlNode.parse(file, text);
        if (root == null) {
            throw new SpecException(file, 0, null, "the file is empty; a spec is a mapping with fields "
                    + String.join(", ", FIELDS));
        }
        if (!(root instanceof MapNode top)) {
            throw new SpecException(file, root.line(), null, "a spec is a mapping with fields "
                    + String.join(", ", FIELDS) + ", not a " + root.kind());
        }
        checkFields(top, "", FIELDS);
        String id = requiredText(top, "id");
        if (!ID.matcher(id).matches()) {
            throw error(top, "id", "'" + printable(id) + "' is not a valid id; valid: up to 100 lower-case letters, digits, '.', '_' and"
                    + " '-', starting with a letter or digit (pattern " + ID.pattern() + ")");
        }
        String title = requiredText(top, "title");
        String paper = optionalText(top, "paper");
        if (paper != null && !PAPER.matcher(paper).matches()) {
            throw error(top, "paper", "'" + paper + "' is not a seed id; write three digits in quotes, e.g. \"000\"");
        }
        String where = optionalText(top, "where");
        List<String> requires = textList(top, "requires", false);
        String designCheck = designCheck(top, paper);
        if (!requires.isEmpty()) {
            // Its workload and policies are what a later issue brings: validate them then.
            String profileText = top.entries().containsKey("profile") ? requiredText(top, "profile") : ProfileRegistry.ROOT;
            return new ExperimentSpec(file, id, title, paper, where, requires, null, pendingList(top, "policies"),
                    profileText, null, 1, 1, List.of(), null, List.of(), null, List.of());
        }
        String workloadName = requiredText(top, "workload");
        Workload workload;
        try {
            workload = WorkloadRegistry.standard().byName(workloadName);
        } catch (IllegalArgumentException e) {
            throw error(top, "workload", "unknown workload '" + workloadName + "'; valid: "
                    + String.join(", ", WorkloadRegistry.standard().names()));
        }
        List<String> policies = policies(top);
        String profileRef = top.entries().containsKey("profile") ? requiredText(top, "profile") : ProfileRegistry.ROOT;
        Profile profile;
        try {
            profileRef = profileReference(profileRef, top);
            profile = ProfileRegistry.resolve(profileRef);
        } catch (ProfileException e) {
            // A missing bundled name is reported at the spec's line; a broken profile file names its own place.
            boolean here = e.file().equals("(command line)") || e.file().equals(profileRef) && e.line() == 0;
            if (file.equals(COMMAND_LINE) && !e.file().equals(COMMAND_LINE)) {
                throw e;   // a spec built from options has no line of its own to point at
            }
            throw error(top, "profile", here ? e.problem() : e.getMessage());
        }
        long seed = top.entries().containsKey("seed") ? integer(top, "seed", 0, Long.MAX_VALUE / 2, "") : 1;
        int repetitions = top.entries().containsKey("repetitions")
                ? (int) integer(top, "repetitions", 1, MAX_REPETITIONS, "") : 1;
        List<Axis> grid = grid(top.entries().get("grid"), "grid", workload, profile);
        Grid.checkRuns(grid, policies.size(), repetitions, file, top.keyLines().getOrDefault("grid", top.line()), "grid");
        checkSchemes(top, workload, grid, policies);
        ExperimentSpec.Quick quick = quick(top.entries().get("quick"), workload, profile);
        List<String> metrics = metrics(top, workload);
        ExperimentSpec.Plot plot = plot(top.entries().get("plot"), title, workload, grid, metrics);
        List<DerivedMetric> derived = derived(top.entries().get("derived"), workload, plot);
        derivedNames = derived.stream().map(DerivedMetric::name).toList();
        List<ExperimentSpec.Reference> reference = references(top.entries().get("reference"), workload, plot);
        List<ExpectedFailure> expectedFailures = expectedFailures(top.entries().get("expected_failures"), grid,
                quick, policies);
        return new ExperimentSpec(file, id, title, paper, where, requires, workload, policies, profileRef, profile, seed,
                repetitions, grid, quick, metrics, plot, reference, derived, seriesLabels(top), expectedFailures, designCheck);
    }

    /**
     * The reason a spec checks a claim of the design rather than a published number, or
     * {@code null}: non-blank text, and never on a seed's experiment, which reproduces its paper.
     */
    private String designCheck(MapNode top, String paper) {
        if (!top.entries().containsKey("design_check")) {
            return null;
        }
        String reason = requiredText(top, "design_check");
        if (reason.isBlank()) {
            throw error(top, "design_check", "is empty; say why no published measurement exists for this experiment");
        }
        if (paper != null) {
            throw error(top, "design_check", "a seed's experiment (paper \"" + paper + "\") reproduces its paper's"
                    + " numbers; design_check is for an experiment no published measurement checks");
        }
        return reason;
    }

    /** A list of names as written, unchecked (for a spec whose names do not exist yet). */
    private static List<String> pendingList(MapNode top, String field) {
        YamlNode n = top.entries().get(field);
        if (n instanceof YamlNode.ListNode list) {
            List<String> out = new java.util.ArrayList<>();
            for (YamlNode item : list.items()) {
                out.add(item instanceof YamlNode.Scalar sc ? sc.text() : item.kind());
            }
            return out;
        }
        return List.of();
    }

    private String profileReference(String ref, MapNode top) {
        boolean path = ref.contains("/") || ref.endsWith(".yaml") || ref.endsWith(".yml");
        if (!path) {
            return ref;
        }
        if (bundled) {
            throw error(top, "profile", "a bundled spec must name a bundled profile, not the path '" + ref + "'");
        }
        Path p = Path.of(ref);
        return (p.isAbsolute() || baseDir == null ? p : baseDir.resolve(p)).normalize().toString();
    }

    private List<String> policies(MapNode top) {
        List<String> names = textList(top, "policies", true);
        if (names.isEmpty()) {
            throw error(top, "policies", "is empty; name at least one policy; valid: " + String.join(", ",
                    PolicyRegistry.standard().names()));
        }
        Set<String> seen = new HashSet<>();
        ListNode list = (ListNode) top.entries().get("policies");
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            int line = list.items().get(i).line();
            if (!PolicyRegistry.standard().names().contains(n)) {
                throw new SpecException(file, line, "policies", "unknown policy '" + n + "'; valid: "
                        + String.join(", ", PolicyRegistry.standard().names()));
            }
            if (!seen.add(n)) {
                throw new SpecException(file, line, "policies", "'" + n + "' appears twice");
            }
        }
        return names;
    }

    /**
     * For a workload with schemes: every scheme the grid names runs under at least one of the
     * policies, and every policy gives at least one of them the registration it needs, so that
     * pairing schemes with policies ({@link Grid#expand}) leaves nothing out by mistake.
     */
    private void checkSchemes(MapNode top, Workload workload, List<Axis> grid, List<String> policies) {
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
                throw axis != null ? new SpecException(file, axis.line(), "grid.scheme", problem)
                        : error(top, "policies", problem);
            }
        }
        for (String p : policies) {
            if (schemes.stream().noneMatch(d -> Grid.pairs(d, p))) {
                throw error(top, "policies", "policy '" + p + "' gives none of the schemes "
                        + String.join(", ", schemes.stream().map(SchemeDescriptor::name).toList())
                        + " the registration it needs");
            }
        }
    }

    private List<Axis> grid(YamlNode node, String field, Workload workload, Profile profile) {
        if (node == null || node instanceof Scalar s && s.token() == JsonToken.VALUE_NULL) {
            return List.of();
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(file, node.line(), field, "must be a mapping from parameter names to a value or a"
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
                    throw new SpecException(file, keyLine, field + "." + key,
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
                    throw new SpecException(file, item.line(), field + "." + key,
                            "must be a value or a list of values, not a " + item.kind());
                }
                if (texts.contains(s.text())) {
                    throw new SpecException(file, s.line(), field + "." + key, "value " + s.text() + " appears twice");
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
                    throw new SpecException(file, lines.get(i), where, e.getMessage());
                }
            }
            return new Axis(key, AxisKind.WORKLOAD, key, coerced, file, keyLine);
        }
        Parameter p = ParameterRegistry.find(key).orElse(null);
        if (p == null) {
            throw new SpecException(file, keyLine, where, "unknown grid key; workload '" + workload.name() + "' takes: "
                    + String.join(", ", workload.parameterNames()) + "; closest profile parameters: "
                    + String.join(", ", ParameterRegistry.closestNames(key, 3)));
        }
        List<Object> texts = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String text = String.valueOf(values.get(i));
            try {
                profile.withOverrides(List.of(new ProfileOverride(key, text, file, lines.get(i))));
            } catch (ProfileException e) {
                throw new SpecException(file, lines.get(i), where, e.problem());
            }
            texts.add(text);
        }
        return new Axis(key, AxisKind.PROFILE, profileColumn(p), texts, file, keyLine);
    }

    /**
     * The grid key {@code profile}: each value a bundled profile name or a path relative to the
     * spec, resolved here so that a missing or broken profile fails before anything runs.
     */
    private Axis profileAxis(List<Object> values, List<Integer> lines, int keyLine, String where) {
        List<Object> refs = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            String text = String.valueOf(values.get(i)).strip();
            int line = lines.get(i);
            String ref = text;
            boolean path = text.contains("/") || text.endsWith(".yaml") || text.endsWith(".yml");
            if (path) {
                if (bundled) {
                    throw new SpecException(file, line, where, "a bundled spec must name bundled profiles, not the path '"
                            + text + "'; valid: " + String.join(", ", ProfileRegistry.bundledNames()));
                }
                Path pth = Path.of(text);
                ref = (pth.isAbsolute() || baseDir == null ? pth : baseDir.resolve(pth)).normalize().toString();
            } else if (!ProfileRegistry.bundledNames().contains(text)) {
                throw new SpecException(file, line, where, "unknown profile '" + text + "'; valid: "
                        + String.join(", ", ProfileRegistry.bundledNames()) + ", or a path to a profile .yaml");
            }
            try {
                ProfileRegistry.resolve(ref);
            } catch (ProfileException e) {
                throw new SpecException(file, line, where, "profile '" + text + "': " + e.getMessage());
            }
            if (refs.contains(ref)) {
                throw new SpecException(file, line, where, "profile " + text + " appears twice");
            }
            refs.add(ref);
        }
        return new Axis(ExperimentSpec.PROFILE_KEY, AxisKind.PROFILE_NAME, ExperimentSpec.PROFILE_KEY, refs, file,
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

    private ExperimentSpec.Quick quick(YamlNode node, Workload workload, Profile profile) {
        if (node == null) {
            return null;
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(file, node.line(), "quick", "must be a mapping with fields "
                    + String.join(", ", QUICK_FIELDS) + ", not a " + node.kind());
        }
        checkFields(m, "quick.", QUICK_FIELDS);
        int reps = m.entries().containsKey("repetitions") ? (int) integer(m, "repetitions", 1, MAX_REPETITIONS, "quick.") : 0;
        List<Axis> grid = grid(m.entries().get("grid"), "quick.grid", workload, profile);
        Grid.checkRuns(grid, 1, Math.max(1, reps), file, m.keyLines().getOrDefault("grid", m.line()), "quick.grid");
        return new ExperimentSpec.Quick(reps, grid);
    }

    private List<String> metrics(MapNode top, Workload workload) {
        if (!top.entries().containsKey("metrics")) {
            return List.of(workload.mainMetric());
        }
        List<String> names = textList(top, "metrics", true);
        if (names.isEmpty()) {
            throw error(top, "metrics", "is empty; name at least one of: " + String.join(", ", workload.metrics()));
        }
        ListNode list = (ListNode) top.entries().get("metrics");
        for (int i = 0; i < names.size(); i++) {
            checkMetric(names.get(i), list.items().get(i).line(), "metrics", workload);
        }
        return names;
    }

    private void checkMetric(String name, int line, String field, Workload workload) {
        if (!workload.metrics().contains(name)) {
            throw new SpecException(file, line, field, "unknown metric '" + name + "'; workload '" + workload.name()
                    + "' produces: " + String.join(", ", workload.metrics()));
        }
    }

    private ExperimentSpec.Plot plot(YamlNode node, String title, Workload workload, List<Axis> grid,
                                     List<String> metrics) {
        if (node == null) {
            return null;
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(file, node.line(), "plot", "must be a mapping with fields "
                    + String.join(", ", PLOT_FIELDS) + ", not a " + node.kind());
        }
        checkFields(m, "plot.", PLOT_FIELDS);
        List<String> columns = new ArrayList<>(List.of("policy"));
        columns.addAll(workload.parameterNames());
        for (Axis a : grid) {
            if (a.kind() == AxisKind.PROFILE) {
                columns.add(a.column());
            }
        }
        if (!m.entries().containsKey("x")) {
            throw new SpecException(file, m.line(), "plot.x", "missing; name the column on the x axis, one of: "
                    + String.join(", ", columns));
        }
        String x = column(m, "x", columns, grid);
        String series;
        if (m.entries().containsKey("series")) {
            List<String> parts = new ArrayList<>();
            for (String c : ExperimentSpec.Plot.seriesColumns(text(m, "series", "plot."))) {
                parts.add(column(m, "series", c, columns, grid));
            }
            series = String.join(ExperimentSpec.Plot.SERIES_JOIN, parts);
        } else {
            // a workload with schemes tells its runs apart by scheme and policy together
            series = workload.parameter(StandardParameters.SCHEME) != null
                    ? StandardParameters.SCHEME + ExperimentSpec.Plot.SERIES_JOIN + "policy" : "policy";
        }
        String y = metrics.get(0);
        if (m.entries().containsKey("y")) {
            y = text(m, "y", "plot.");
            checkMetric(y, m.keyLines().get("y"), "plot.y", workload);
        }
        boolean logx = m.entries().containsKey("logx") && bool(m, "logx");
        boolean logy = m.entries().containsKey("logy") && bool(m, "logy");
        String plotTitle = m.entries().containsKey("title") ? text(m, "title", "plot.") : title;
        return new ExperimentSpec.Plot(x, y, series, logx, logy, plotTitle);
    }

    /** A plot axis: a column name, or a profile grid key, which is normalised to its column. */
    private String column(MapNode m, String key, List<String> columns, List<Axis> grid) {
        return column(m, key, text(m, key, "plot."), columns, grid);
    }

    private String column(MapNode m, String key, String v, List<String> columns, List<Axis> grid) {
        for (Axis a : grid) {
            if (a.key().equals(v)) {
                return a.column();
            }
        }
        if (!columns.contains(v)) {
            throw new SpecException(file, m.keyLines().get(key), "plot." + key, "'" + v
                    + "' is not a column of this experiment; valid: " + String.join(", ", columns));
        }
        return v;
    }

    private List<ExperimentSpec.Reference> references(YamlNode node, Workload workload, ExperimentSpec.Plot plot) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw new SpecException(file, node.line(), "reference", "must be a list of {series, x, metric, value,"
                    + " where}, not a " + node.kind());
        }
        if (!list.items().isEmpty() && plot == null) {
            throw new SpecException(file, node.line(), "reference",
                    "needs a plot: plot.x says which column the reference x values are in");
        }
        List<ExperimentSpec.Reference> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String f = "reference[" + i + "].";
            if (!(item instanceof MapNode m)) {
                throw new SpecException(file, item.line(), "reference[" + i + "]",
                        "must be a mapping {series, x, metric, value, where}, not a " + item.kind());
            }
            checkFields(m, f, REFERENCE_FIELDS);
            Claim.Shape shape = null;
            if (m.entries().containsKey("shape")) {
                String name = text(m, "shape", f);
                shape = Claim.Shape.byName(name);
                if (shape == null) {
                    throw new SpecException(file, m.keyLines().get("shape"), f + "shape", "'" + name
                            + "' is not valid; valid values: " + Claim.Shape.names());
                }
            }
            List<String> required = shape == null ? List.of("series", "metric", "value")
                    : shape == Claim.Shape.RANKED ? List.of("metric", "order") : List.of("series", "metric");
            for (String r : required) {
                if (!m.entries().containsKey(r)) {
                    throw new SpecException(file, m.line(), f + r, "missing; a reference needs " + String.join(", ",
                            required) + (shape == null ? " (a number, or withheld)" : " for shape " + shape
                            .name().toLowerCase(java.util.Locale.ROOT)));
                }
            }
            String id = null;
            if (m.entries().containsKey("id")) {
                id = text(m, "id", f);
                if (!id.matches("[a-z0-9_]+")) {
                    throw new SpecException(file, m.keyLines().get("id"), f + "id", "'" + id
                            + "' is not valid; an id is lower-case letters, digits and _");
                }
                String taken = id;
                if (out.stream().anyMatch(r -> taken.equals(r.id()))) {
                    throw new SpecException(file, m.keyLines().get("id"), f + "id", "'" + id
                            + "' is already the id of another reference");
                }
            }
            String series = m.entries().containsKey("series") ? text(m, "series", f) : null;
            // Without x, the entry says nothing of where it holds; the comparison reports it as not
            // comparable when the plot has several x. "all": the claim holds at every x.
            Object x = m.entries().containsKey("x") ? scalar(m, "x", f).value() : null;
            String metric = text(m, "metric", f);
            if (!derivedNames.contains(metric)) {
                checkMetric(metric, m.keyLines().get("metric"), f + "metric", workload);
            }
            Double value = null;
            if (shape != null) {
                for (String no : List.of("value", "kind", "tolerance", "reason")) {
                    if (m.entries().containsKey(no)) {
                        throw new SpecException(file, m.keyLines().get(no), f + no, "does not apply to a shape check;"
                                + " a trend has no value and no tolerance");
                    }
                }
            } else {
                Scalar v = scalar(m, "value", f);
                if (v.isNumber()) {
                    value = finite(v, f + "value");
                } else if (!v.text().equals("withheld")) {
                    throw new SpecException(file, v.line(), f + "value", "'" + v.text()
                            + "' is not a number; write the published number, or withheld");
                }
            }
            String where = m.entries().containsKey("where") ? text(m, "where", f) : null;
            Claim claim = shape != null ? trend(m, f, shape) : claim(m, f, value);
            out.add(new ExperimentSpec.Reference(id, series, x, metric, value, where, claim));
        }
        return out;
    }

    /** The ratio tolerance or bound of a reference that gives a value. */
    private Claim claim(MapNode m, String f, Double value) {
        Claim.Kind kind = Claim.Kind.MEASURED;
        if (m.entries().containsKey("kind")) {
            String name = text(m, "kind", f);
            kind = Claim.Kind.byName(name);
            if (kind == null) {
                throw new SpecException(file, m.keyLines().get("kind"), f + "kind", "'" + name
                        + "' is not valid; valid values: " + Claim.Kind.names());
            }
        }
        boolean bound = kind == Claim.Kind.AT_MOST || kind == Claim.Kind.AT_LEAST;
        if (!m.entries().containsKey("tolerance")) {
            if (m.entries().containsKey("reason")) {
                throw new SpecException(file, m.keyLines().get("reason"), f + "reason",
                        "explains a tolerance; give tolerance: [low, high] with it");
            }
            if (!bound && value != null && value == 0) {
                throw new SpecException(file, m.keyLines().get("value"), f + "value", "0 has no ratio tolerance;"
                        + " state it as kind: at_most or at_least");
            }
            return bound ? new Claim.Bound(kind == Claim.Kind.AT_MOST) : Claim.Ratio.of(kind);
        }
        if (bound) {
            throw new SpecException(file, m.keyLines().get("tolerance"), f + "tolerance",
                    "does not apply to kind " + text(m, "kind", f) + ": the bound itself is the tolerance");
        }
        YamlNode t = m.entries().get("tolerance");
        if (!(t instanceof ListNode l) || l.items().size() != 2
                || !(l.items().get(0) instanceof Scalar lo) || !lo.isNumber()
                || !(l.items().get(1) instanceof Scalar hi) || !hi.isNumber()) {
            throw new SpecException(file, m.keyLines().get("tolerance"), f + "tolerance",
                    "must be [low, high]: the lowest and highest ratio ours/paper within tolerance");
        }
        double low = finite(lo, f + "tolerance");
        double high = finite(hi, f + "tolerance");
        if (!(low > 0 && low <= 1 && high >= 1 && Double.isFinite(high))) {
            throw new SpecException(file, m.keyLines().get("tolerance"), f + "tolerance", "[" + lo.text() + ", "
                    + hi.text() + "] is not valid; need 0 < low <= 1 <= high");
        }
        String reason = m.entries().containsKey("reason") ? text(m, "reason", f) : null;
        Claim.Ratio r = new Claim.Ratio(kind, low, high, reason);
        if (r.widened() && (reason == null || reason.isBlank())) {
            throw new SpecException(file, m.keyLines().get("tolerance"), f + "tolerance", "is wider than the "
                    + text(m, "kind", f, "measured") + " default " + Claim.Ratio.of(kind).describe(value)
                    + "; a wider tolerance needs reason: \"why\"");
        }
        return r;
    }

    /** A shape check: the order of a ranking, the x range of a monotone trend. */
    private Claim trend(MapNode m, String f, Claim.Shape shape) {
        List<List<String>> order = new ArrayList<>();
        if (m.entries().containsKey("order")) {
            if (shape != Claim.Shape.RANKED) {
                throw new SpecException(file, m.keyLines().get("order"), f + "order", "applies to shape: ranked only");
            }
            if (!(m.entries().get("order") instanceof ListNode l) || l.items().size() < 2) {
                throw new SpecException(file, m.keyLines().get("order"), f + "order", "must list at least two series"
                        + " or groups of series, highest first: [A, [B, C], D]");
            }
            for (YamlNode item : l.items()) {
                if (item instanceof Scalar s && s.token() != JsonToken.VALUE_NULL) {
                    order.add(List.of(s.text()));
                } else if (item instanceof ListNode g && !g.items().isEmpty()
                        && g.items().stream().allMatch(i -> i instanceof Scalar)) {
                    order.add(g.items().stream().map(i -> ((Scalar) i).text()).toList());
                } else {
                    throw new SpecException(file, item.line(), f + "order", "items must be series or lists of series");
                }
            }
        } else if (m.entries().containsKey("series") && shape == Claim.Shape.RANKED) {
            throw new SpecException(file, m.keyLines().get("series"), f + "series",
                    "a ranking names its series in order, not in series");
        }
        boolean monotone = shape == Claim.Shape.INCREASING || shape == Claim.Shape.DECREASING;
        Double xMin = null;
        Double xMax = null;
        for (String k : List.of("x_min", "x_max")) {
            if (!m.entries().containsKey(k)) {
                continue;
            }
            Scalar v = scalar(m, k, f);
            if (!monotone || !v.isNumber()) {
                throw new SpecException(file, v.line(), f + k, !monotone ? "applies to shapes increasing and"
                        + " decreasing only" : "'" + v.text() + "' is not a number");
            }
            double d = finite(v, f + k);
            if (k.equals("x_min")) {
                xMin = d;
            } else {
                xMax = d;
            }
        }
        if (monotone && m.entries().containsKey("x")) {
            throw new SpecException(file, m.keyLines().get("x"), f + "x", "a trend over x takes x_min and x_max,"
                    + " not x");
        }
        return new Claim.Trend(shape, order, xMin, xMax);
    }

    private String text(MapNode m, String key, String prefix, String otherwise) {
        return m.entries().containsKey(key) ? text(m, key, prefix) : otherwise;
    }

    /** The {@code series_labels} mapping: the paper's labels, as references write them, to our series values. */
    private Map<String, String> seriesLabels(MapNode top) {
        YamlNode node = top.entries().get("series_labels");
        if (node == null) {
            return Map.of();
        }
        if (!(node instanceof MapNode m)) {
            throw new SpecException(file, node.line(), "series_labels", "must be a mapping {\"paper label\": our"
                    + " series, ...}, not a " + node.kind());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String label : m.entries().keySet()) {
            YamlNode v = m.entries().get(label);
            if (!(v instanceof Scalar s) || s.token() != JsonToken.VALUE_STRING || s.text().isBlank()) {
                throw new SpecException(file, m.keyLines().get(label), "series_labels." + label, "must be the name"
                        + " of one of our series as text, not a " + (v instanceof Scalar t && t.token()
                        == JsonToken.VALUE_STRING ? "blank text" : v.kind()) + "; quote it if it looks like a number");
            }
            out.put(label, s.text());
        }
        return out;
    }

    /**
     * The {@code expected_failures} list: each {@code {when: {KEY: VALUE | [VALUES], ...}, reason,
     * why}}, a key a grid key (of the grid or the quick grid) or {@code policy}, each value one the
     * grid (or the policies) has.
     */
    private List<ExpectedFailure> expectedFailures(YamlNode node, List<Axis> grid, ExperimentSpec.Quick quick,
            List<String> policies) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw new SpecException(file, node.line(), "expected_failures", "must be a list of {when, reason, why},"
                    + " not a " + node.kind());
        }
        List<ExpectedFailure> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String f = "expected_failures[" + i + "].";
            if (!(item instanceof MapNode m)) {
                throw new SpecException(file, item.line(), "expected_failures[" + i + "]", "must be a mapping {when,"
                        + " reason, why}, not a " + item.kind());
            }
            checkFields(m, f, EXPECTED_FAILURE_FIELDS);
            for (String required : EXPECTED_FAILURE_FIELDS) {
                if (!m.entries().containsKey(required)) {
                    throw new SpecException(file, m.line(), f + required, "missing; an expected failure needs when"
                            + " (the rows), reason (text of their reason column) and why");
                }
            }
            if (!(m.entries().get("when") instanceof MapNode when)) {
                throw new SpecException(file, m.keyLines().get("when"), f + "when", "must be a mapping of grid keys"
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
                    throw new SpecException(file, line, f + "when." + key, "not a grid key; valid: "
                            + String.join(", ", keys));
                }
                List<YamlNode> given = e.getValue() instanceof ListNode l ? l.items() : List.of(e.getValue());
                List<Object> values = new ArrayList<>();
                for (YamlNode v : given) {
                    if (!(v instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
                        throw new SpecException(file, line, f + "when." + key, "must be a value or a list of values");
                    }
                    Object match1 = valid.stream().filter(w -> ReferenceComparison.same(w, s.text())).findFirst()
                            .orElse(null);
                    if (match1 == null) {
                        throw new SpecException(file, line, f + "when." + key, "'" + s.text() + "' is not a value of "
                                + key + "; valid: " + String.join(", ", valid.stream().map(String::valueOf).toList()));
                    }
                    values.add(match1);
                }
                match.put(key, values);
            }
            String reason = text(m, "reason", f);
            String why = text(m, "why", f);
            if (reason.isBlank() || why.isBlank()) {
                throw new SpecException(file, m.line(), f + (reason.isBlank() ? "reason" : "why"), "is empty");
            }
            out.add(new ExpectedFailure(match, reason, why));
        }
        return out;
    }

    /** The {@code derived} list: metrics computed across rows ({@link DerivedMetric}). */
    private List<DerivedMetric> derived(YamlNode node, Workload workload, ExperimentSpec.Plot plot) {
        if (node == null) {
            return List.of();
        }
        if (!(node instanceof ListNode list)) {
            throw new SpecException(file, node.line(), "derived", "must be a list of {name, metric, series, over |"
                    + " over_x, pick, x_max, at_crossing}, not a " + node.kind());
        }
        if (!list.items().isEmpty() && plot == null) {
            throw new SpecException(file, node.line(), "derived", "needs a plot: plot.series and plot.x say what"
                    + " series and x mean");
        }
        List<DerivedMetric> out = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String f = "derived[" + i + "].";
            if (!(item instanceof MapNode m)) {
                throw new SpecException(file, item.line(), "derived[" + i + "]", "must be a mapping {name, metric,"
                        + " series, over | over_x, ...}, not a " + item.kind());
            }
            checkFields(m, f, DERIVED_FIELDS);
            for (String required : List.of("name", "metric", "series")) {
                if (!m.entries().containsKey(required)) {
                    throw new SpecException(file, m.line(), f + required, "missing; a derived metric needs name,"
                            + " metric, series and one of over or over_x");
                }
            }
            String name = text(m, "name", f);
            String series = text(m, "series", f);
            // One name may be derived for several series (a paper's statement about each of them).
            if (workload.metrics().contains(name)
                    || out.stream().anyMatch(d -> d.name().equals(name) && d.series().equals(series))) {
                throw new SpecException(file, m.keyLines().get("name"), f + "name", "'" + name
                        + "' is already a metric" + (workload.metrics().contains(name) ? "" : " of series " + series)
                        + "; a derived metric needs a name of its own");
            }
            String metric = text(m, "metric", f);
            checkMetric(metric, m.keyLines().get("metric"), f + "metric", workload);
            List<String> over = m.entries().containsKey("over") ? textList(m, "over", false) : List.of();
            Object overX = m.entries().containsKey("over_x") ? scalar(m, "over_x", f).value() : null;
            if (over.isEmpty() == (overX == null)) {
                throw new SpecException(file, m.line(), f + "over", "give exactly one of over (a list of series) and"
                        + " over_x (an x value)");
            }
            boolean pickMax = false;
            if (m.entries().containsKey("pick")) {
                String pick = text(m, "pick", f);
                if (!pick.equals("min") && !pick.equals("max")) {
                    throw new SpecException(file, m.keyLines().get("pick"), f + "pick", "'" + pick
                            + "' is not valid; valid values: min, max");
                }
                pickMax = pick.equals("max");
            }
            Double xMax = null;
            if (m.entries().containsKey("x_max")) {
                Scalar v = scalar(m, "x_max", f);
                if (!v.isNumber()) {
                    throw new SpecException(file, v.line(), f + "x_max", "'" + v.text() + "' is not a number");
                }
                xMax = finite(v, f + "x_max");
            }
            String atCrossing = null;
            if (m.entries().containsKey("at_crossing")) {
                atCrossing = text(m, "at_crossing", f);
                checkMetric(atCrossing, m.keyLines().get("at_crossing"), f + "at_crossing", workload);
                if (over.size() != 1) {
                    throw new SpecException(file, m.keyLines().get("at_crossing"), f + "at_crossing",
                            "needs exactly one series in over, the one whose curve is crossed");
                }
            }
            DerivedMetric.Form form = DerivedMetric.Form.RATIO;
            if (m.entries().containsKey("as")) {
                String as = text(m, "as", f);
                form = DerivedMetric.Form.byName(as);
                if (form == null) {
                    throw new SpecException(file, m.keyLines().get("as"), f + "as", "'" + as
                            + "' is not valid; valid values: " + DerivedMetric.Form.names());
                }
                if (atCrossing != null) {
                    throw new SpecException(file, m.keyLines().get("as"), f + "as",
                            "applies to ratios only, not to a value at a crossing (at_crossing)");
                }
            }
            out.add(new DerivedMetric(name, metric, series, over, overX, pickMax, xMax, atCrossing, form));
        }
        return out;
    }

    // ---- small typed readers; each names the field and what it must be ----

    private void checkFields(MapNode m, String prefix, List<String> valid) {
        for (String key : m.entries().keySet()) {
            if (!valid.contains(key)) {
                throw new SpecException(file, m.keyLines().get(key), prefix + key,
                        "unknown field; valid fields: " + String.join(", ", valid));
            }
        }
    }

    private Scalar scalar(MapNode m, String key, String prefix) {
        YamlNode n = m.entries().get(key);
        if (!(n instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
            throw new SpecException(file, m.keyLines().get(key), prefix + key,
                    "must be a single value, not a " + n.kind());
        }
        return s;
    }

    private String text(MapNode m, String key, String prefix) {
        return scalar(m, key, prefix).text();
    }

    private String requiredText(MapNode top, String key) {
        if (!top.entries().containsKey(key)) {
            throw new SpecException(file, top.line(), key, "missing; every spec needs "
                    + "id, title, workload and policies");
        }
        String t = text(top, key, "");
        if (t.isBlank()) {
            throw error(top, key, "is empty");
        }
        return t;
    }

    private String optionalText(MapNode top, String key) {
        YamlNode n = top.entries().get(key);
        if (n == null || n instanceof Scalar s && s.token() == JsonToken.VALUE_NULL) {
            return null;
        }
        return text(top, key, "");
    }

    private List<String> textList(MapNode top, String key, boolean required) {
        YamlNode n = top.entries().get(key);
        if (n == null) {
            if (required) {
                throw new SpecException(file, top.line(), key, "missing; every spec needs "
                        + "id, title, workload and policies");
            }
            return List.of();
        }
        if (!(n instanceof ListNode l)) {
            throw error(top, key, "must be a list, e.g. [a, b], not a " + n.kind());
        }
        List<String> out = new ArrayList<>();
        for (YamlNode item : l.items()) {
            if (!(item instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
                throw new SpecException(file, item.line(), key, "items must be single values, not a " + item.kind());
            }
            out.add(s.text());
        }
        return out;
    }

    private long integer(MapNode m, String key, long min, long max, String prefix) {
        Scalar s = scalar(m, key, prefix);
        if (s.token() != JsonToken.VALUE_NUMBER_INT || !(s.value() instanceof Long v)) {
            throw new SpecException(file, s.line(), prefix + key, "'" + s.text() + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw new SpecException(file, s.line(), prefix + key, v + " is out of range; valid: " + min + " to " + max);
        }
        return v;
    }

    /** Text for a message: control characters shown as escapes, so the message stays one line. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(60).forEach(c -> {
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return s.codePointCount(0, s.length()) > 60 ? b + "..." : b.toString();
    }

    /** A number YAML read as one, as a finite double: {@code 0x10} or {@code 1e999} are refused here. */
    private double finite(Scalar s, String field) {
        double d = Scalar.decimal(s.text());
        if (!Double.isFinite(d)) {
            throw new SpecException(file, s.line(), field, "'" + s.text() + "' is not a finite decimal number; "
                    + Decimals.EXAMPLES);
        }
        return d;
    }

    private boolean bool(MapNode m, String key) {
        Scalar s = scalar(m, key, "plot.");
        if (s.token() != JsonToken.VALUE_TRUE
                && s.token() != JsonToken.VALUE_FALSE) {
            throw new SpecException(file, s.line(), "plot." + key, "'" + s.text() + "' is not a boolean; valid values:"
                    + " true, false");
        }
        return s.token() == JsonToken.VALUE_TRUE;
    }

    private SpecException error(MapNode m, String key, String problem) {
        return new SpecException(file, m.keyLines().getOrDefault(key, m.line()), key, problem);
    }
}
