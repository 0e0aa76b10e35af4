package org.pagefabric.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.pagefabric.config.NameSuggestions;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.TextFiles;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.AxisKind;
import org.pagefabric.experiment.YamlNode.ListNode;
import org.pagefabric.experiment.YamlNode.MapNode;
import org.pagefabric.experiment.YamlNode.Scalar;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Reads experiment specs (the format of {@code docs/SPEC-FORMAT.md}) from a file or from the
 * bundled {@code experiments/} resources, validates everything that can be checked before a run
 * (names, grid keys and values, metrics, plot axes, references) and fills in defaults. Every
 * problem is a {@link SpecException} naming the file, line, field and the valid values: a bad
 * spec must fail in a second, not after an hour of simulation.
 *
 * <p>This class reads the top level (identity, workload, policies, profile, metrics, plot) and
 * hands the rest to readers of their own: {@link GridReader} for the grid, the quick grid and
 * expected failures, {@link ReferenceReader} for the published values and series labels,
 * {@link DerivedReader} for derived metrics, all on the typed field readers of {@link SpecFields}.
 */
public final class SpecReader {
    /** Top-level fields, in the order the format documents them. */
    static final List<String> FIELDS = List.of("id", "title", "paper", "where", "requires", "design_check", "workload", "policies",
            "profile", "seed", "repetitions", "grid", "quick", "metrics", "plot", "reference", "derived", "series_labels",
            "expected_failures");
    private static final List<String> PLOT_FIELDS = List.of("x", "y", "series", "logx", "logy", "title");
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
    private final SpecFields fields;
    private final GridReader grids;

    private SpecReader(String file, Path baseDir, boolean bundled) {
        this.file = file;
        this.fields = new SpecFields(file);
        this.grids = new GridReader(fields, baseDir, bundled);
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
        fields.checkFields(top, "", FIELDS);
        String id = fields.requiredText(top, "id");
        if (!ID.matcher(id).matches()) {
            throw fields.error(top, "id", "'" + fields.printable(id) + "' is not a valid id; valid: up to 100 lower-case letters, digits, '.', '_' and"
                    + " '-', starting with a letter or digit (pattern " + ID.pattern() + ")");
        }
        String title = fields.requiredText(top, "title");
        String paper = fields.optionalText(top, "paper");
        if (paper != null && !PAPER.matcher(paper).matches()) {
            throw fields.error(top, "paper", "'" + paper + "' is not a seed id; write three digits in quotes, e.g. \"000\"");
        }
        String where = fields.optionalText(top, "where");
        List<String> requires = fields.textList(top, "requires", false);
        String designCheck = designCheck(top, paper);
        if (!requires.isEmpty()) {
            // Its workload and policies are what a later issue brings: validate them then.
            String profileText = top.entries().containsKey("profile") ? fields.requiredText(top, "profile") : ProfileRegistry.ROOT;
            return new ExperimentSpec(file, id, title, paper, where, requires, null, pendingList(top, "policies"),
                    profileText, null, 1, 1, List.of(), null, List.of(), null, List.of());
        }
        String workloadName = fields.requiredText(top, "workload");
        Workload workload;
        try {
            workload = WorkloadRegistry.standard().byName(workloadName);
        } catch (IllegalArgumentException e) {
            throw fields.error(top, "workload", "unknown workload '" + workloadName + "'; valid: "
                    + String.join(", ", WorkloadRegistry.standard().names()));
        }
        List<String> policies = policies(top);
        String profileRef = top.entries().containsKey("profile") ? fields.requiredText(top, "profile") : ProfileRegistry.ROOT;
        Profile profile;
        try {
            profileRef = grids.profileReference(profileRef, top);
            profile = ProfileRegistry.resolve(profileRef);
        } catch (ProfileException e) {
            // A missing bundled name is reported at the spec's line; a broken profile file names its own place.
            boolean here = e.file().equals("(command line)") || e.file().equals(profileRef) && e.line() == 0;
            if (file.equals(COMMAND_LINE) && !e.file().equals(COMMAND_LINE)) {
                throw e;   // a spec built from options has no line of its own to point at
            }
            throw fields.error(top, "profile", here ? e.problem() : e.getMessage());
        }
        long seed = top.entries().containsKey("seed") ? fields.integer(top, "seed", 0, Long.MAX_VALUE / 2, "") : 1;
        int repetitions = top.entries().containsKey("repetitions")
                ? (int) fields.integer(top, "repetitions", 1, MAX_REPETITIONS, "") : 1;
        List<Axis> grid = grids.grid(top.entries().get("grid"), "grid", workload, profile);
        Grid.checkRuns(grid, policies.size(), repetitions, file, top.keyLines().getOrDefault("grid", top.line()), "grid");
        grids.checkSchemes(top, workload, grid, policies);
        ExperimentSpec.Quick quick = grids.quick(top.entries().get("quick"), workload, profile);
        List<String> metrics = metrics(top, workload);
        ExperimentSpec.Plot plot = plot(top.entries().get("plot"), title, workload, grid, metrics);
        List<DerivedMetric> derived = new DerivedReader(fields).derived(top.entries().get("derived"), workload, plot);
        ReferenceReader references = new ReferenceReader(fields, derived.stream().map(DerivedMetric::name).toList());
        List<ExperimentSpec.Reference> reference = references.references(top.entries().get("reference"), workload, plot);
        List<ExpectedFailure> expectedFailures = grids.expectedFailures(top.entries().get("expected_failures"), grid,
                quick, policies);
        return new ExperimentSpec(file, id, title, paper, where, requires, workload, policies, profileRef, profile, seed,
                repetitions, grid, quick, metrics, plot, reference, derived, references.seriesLabels(top),
                expectedFailures, designCheck);
    }

    /**
     * The reason a spec checks a claim of the design rather than a published number, or
     * {@code null}: non-blank text, and never on a seed's experiment, which reproduces its paper.
     */
    private String designCheck(MapNode top, String paper) {
        if (!top.entries().containsKey("design_check")) {
            return null;
        }
        String reason = fields.requiredText(top, "design_check");
        if (reason.isBlank()) {
            throw fields.error(top, "design_check", "is empty; say why no published measurement exists for this experiment");
        }
        if (paper != null) {
            throw fields.error(top, "design_check", "a seed's experiment (paper \"" + paper + "\") reproduces its paper's"
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

    private List<String> policies(MapNode top) {
        List<String> names = fields.textList(top, "policies", true);
        if (names.isEmpty()) {
            throw fields.error(top, "policies", "is empty; name at least one policy; valid: " + String.join(", ",
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

    private List<String> metrics(MapNode top, Workload workload) {
        if (!top.entries().containsKey("metrics")) {
            return List.of(workload.mainMetric());
        }
        List<String> names = fields.textList(top, "metrics", true);
        if (names.isEmpty()) {
            throw fields.error(top, "metrics", "is empty; name at least one of: " + String.join(", ", workload.metrics()));
        }
        ListNode list = (ListNode) top.entries().get("metrics");
        for (int i = 0; i < names.size(); i++) {
            fields.checkMetric(names.get(i), list.items().get(i).line(), "metrics", workload);
        }
        return names;
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
        fields.checkFields(m, "plot.", PLOT_FIELDS);
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
            for (String c : ExperimentSpec.Plot.seriesColumns(fields.text(m, "series", "plot."))) {
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
            y = fields.text(m, "y", "plot.");
            fields.checkMetric(y, m.keyLines().get("y"), "plot.y", workload);
        }
        boolean logx = m.entries().containsKey("logx") && fields.bool(m, "logx");
        boolean logy = m.entries().containsKey("logy") && fields.bool(m, "logy");
        String plotTitle = m.entries().containsKey("title") ? fields.text(m, "title", "plot.") : title;
        return new ExperimentSpec.Plot(x, y, series, logx, logy, plotTitle);
    }

    /** A plot axis: a column name, or a profile grid key, which is normalised to its column. */
    private String column(MapNode m, String key, List<String> columns, List<Axis> grid) {
        return column(m, key, fields.text(m, key, "plot."), columns, grid);
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
}
