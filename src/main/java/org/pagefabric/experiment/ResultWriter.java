package org.pagefabric.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.Reference;

/**
 * Writes an experiment's results directory: {@code rows.csv} and {@code rows.json} (the same
 * tidy rows), {@code manifest.json} (what ran, with which build, and whether it finished) and
 * {@code spec.resolved.yaml} (the spec as run, defaults filled in and quick applied, followed by
 * the resolved profile as a second YAML document). Every file is a pure function of the result
 * and the build: no time stamps, no thread count, so two runs of one spec give identical files.
 */
public final class ResultWriter {
    /** The files {@link #write} produces. */
    public static final List<String> FILES = List.of("rows.csv", "rows.json", "manifest.json", "spec.resolved.yaml");

    /** The manifest's file name: written last, so that its presence says the files beside it are whole. */
    public static final String MANIFEST = "manifest.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());
    private static final Properties BUILD = buildProperties();

    private ResultWriter() {
    }

    /**
     * Writes the four files into {@code dir}, creating it, each whole or not at all, the manifest
     * last: a manifest beside the rows means they are whole.
     *
     * @throws WriteFailedException naming what was not written and why
     */
    public static void write(ExperimentResult result, Path dir) {
        // an older manifest must not vouch for files this run is about to replace
        removeManifest(dir);
        List<String> left = new ArrayList<>(List.of("rows.csv", "rows.json", "spec.resolved.yaml", "manifest.json"));
        writeNext(dir, left, csv(result.rows()));
        writeNext(dir, left, json(result.rows()));
        writeNext(dir, left, resolvedSpec(result));
        writeNext(dir, left, json(manifest(result)));
    }

    /**
     * Removes {@code dir/manifest.json} before its results are rewritten.
     *
     * @throws WriteFailedException if it cannot be removed
     */
    public static void removeManifest(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(MANIFEST));
        } catch (IOException e) {
            throw new WriteFailedException(dir.resolve(MANIFEST), WholeFile.reason(e));
        }
    }

    /** Writes the first of {@code left} and removes it from the list; a failure names the rest as missing. */
    public static void writeNext(Path dir, List<String> left, String text) {
        writeNext(dir, left, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes the first of {@code left} and removes it from the list; a failure names the rest as missing. */
    public static void writeNext(Path dir, List<String> left, byte[] bytes) {
        String name = left.getFirst();
        try {
            WholeFile.write(dir.resolve(name), bytes);
        } catch (WriteFailedException e) {
            throw new WriteFailedException(e.getMessage() + "; not written in " + dir + ": " + String.join(", ", left)
                    + (left.contains(MANIFEST) ? " (no manifest: these results are not complete)" : ""), e.reason());
        }
        left.removeFirst();
    }

    /**
     * The directory of experiment {@code id} under {@code root}: a child of {@code root}, never
     * {@code root} itself or a place outside it, even for an id a spec reader let through or a
     * link planted under {@code root}.
     *
     * @throws IllegalArgumentException if {@code id} would put results outside {@code root}
     */
    public static Path directoryFor(Path root, String id) {
        Path base = root.toAbsolutePath().normalize();
        Path dir;
        try {
            dir = base.resolve(id).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("experiment id '" + id + "' is not a directory name: " + e.getReason());
        }
        if (!dir.startsWith(base) || dir.equals(base) || !dir.getParent().equals(base)) {
            throw new IllegalArgumentException("experiment id '" + id + "' would write results outside " + root
                    + "; an id is one directory name");
        }
        try {
            if (Files.exists(dir) && Files.exists(base)
                    && !dir.toRealPath().getParent().equals(base.toRealPath())) {
                throw new IllegalArgumentException(dir + " links outside " + root + "; results stay under it");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
        }
        return dir;
    }

    /** Every column of any row, in first-seen order. */
    public static List<String> columns(List<Map<String, Object>> rows) {
        Set<String> cols = new LinkedHashSet<>();
        rows.forEach(r -> cols.addAll(r.keySet()));
        return new ArrayList<>(cols);
    }

    /** The rows as CSV: a header, then one line per row; cells with commas or quotes are quoted. */
    public static String csv(List<Map<String, Object>> rows) {
        List<String> cols = columns(rows);
        StringBuilder b = new StringBuilder(String.join(",", cols.stream().map(ResultWriter::cell).toList()))
                .append('\n');
        for (Map<String, Object> r : rows) {
            for (int i = 0; i < cols.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                Object v = r.get(cols.get(i));
                b.append(v == null ? "" : cell(String.valueOf(v)));
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String cell(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /** A value as indented JSON with a final newline. */
    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("results could not be written as JSON", e);
        }
    }

    /**
     * The manifest: experiment id, title, spec file, paper, seed, repetitions, quick, the
     * {@code --set} values, PageFabric version and commit, JVM, complete flag and counts.
     */
    public static Map<String, Object> manifest(ExperimentResult result) {
        ExperimentSpec s = result.spec();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", s.id());
        m.put("title", s.title());
        m.put("spec_file", s.file());
        m.put("paper", s.paper());
        m.put("where", s.where());
        m.put("workload", s.workload().name());
        m.put("profile", s.profileRef());
        m.put("seed", s.seed());
        m.put("repetitions", s.repetitions());
        m.put("quick", result.quick());
        m.put("overrides", result.overrides());
        m.putAll(build());
        m.put("complete", result.complete());
        m.put("points", result.planned());
        m.put("rows", result.rows().size());
        return m;
    }

    /**
     * What the manifest says about the build that ran: {@code pagefabric_version},
     * {@code git_commit} (with {@code -dirty} for uncommitted changes) and {@code jvm}.
     */
    public static Map<String, Object> build() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pagefabric_version", buildProperty("version"));
        m.put("git_commit", "true".equals(buildProperty("dirty")) ? buildProperty("commit") + "-dirty"
                : buildProperty("commit"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + Runtime.version());
        return m;
    }

    /**
     * The spec as run, as YAML in the spec format (it reads back with {@link SpecReader}), then
     * {@code ---} and the resolved base profile (grid keys vary some of its values per point).
     */
    public static String resolvedSpec(ExperimentResult result) {
        ExperimentSpec s = result.spec();
        StringBuilder sb = new StringBuilder();
        sb.append("# Resolved experiment spec: defaults filled in").append(result.quick() ? ", --quick applied" : "");
        result.overrides().forEach((k, v) -> sb.append(", --set ").append(k).append('=').append(v));
        sb.append(".\n# The second document is the resolved profile the grid's profile keys override.\n");
        try {
            sb.append(YAML.writeValueAsString(specMap(s)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("spec could not be written as YAML", e);
        }
        sb.append("---\n").append(s.profile().dump());
        return sb.toString();
    }

    /** The spec's fields in format order, with every default explicit. */
    static Map<String, Object> specMap(ExperimentSpec s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.id());
        m.put("title", s.title());
        if (s.paper() != null) {
            m.put("paper", s.paper());
        }
        if (s.where() != null) {
            m.put("where", s.where());
        }
        m.put("requires", s.requires());
        if (s.designCheck() != null) {
            m.put("design_check", s.designCheck());
        }
        m.put("workload", s.workload().name());
        m.put("policies", s.policies());
        m.put("profile", s.profileRef());
        m.put("seed", s.seed());
        m.put("repetitions", s.repetitions());
        m.put("grid", gridMap(s.grid()));
        if (s.quick() != null) {
            Map<String, Object> q = new LinkedHashMap<>();
            if (s.quick().repetitions() > 0) {
                q.put("repetitions", s.quick().repetitions());
            }
            q.put("grid", gridMap(s.quick().grid()));
            m.put("quick", q);
        }
        m.put("metrics", s.metrics());
        if (s.plot() != null) {
            ExperimentSpec.Plot p = s.plot();
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("x", p.x());
            pm.put("y", p.y());
            pm.put("series", p.series());
            pm.put("logx", p.logx());
            pm.put("logy", p.logy());
            pm.put("title", p.title());
            m.put("plot", pm);
        }
        List<Map<String, Object>> refs = new ArrayList<>();
        for (Reference r : s.reference()) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("series", r.series());
            rm.put("x", r.x());
            rm.put("metric", r.metric());
            rm.put("value", r.withheld() ? "withheld" : r.value());
            if (r.where() != null) {
                rm.put("where", r.where());
            }
            refs.add(rm);
        }
        m.put("reference", refs);
        if (!s.expectedFailures().isEmpty()) {
            List<Map<String, Object>> expected = new ArrayList<>();
            for (ExpectedFailure e : s.expectedFailures()) {
                Map<String, Object> em = new LinkedHashMap<>();
                Map<String, Object> when = new LinkedHashMap<>();
                e.when().forEach((k, v) -> when.put(k, v.size() == 1 ? v.getFirst() : v));
                em.put("when", when);
                em.put("reason", e.reason());
                em.put("why", e.why());
                expected.add(em);
            }
            m.put("expected_failures", expected);
        }
        return m;
    }

    private static Map<String, Object> gridMap(List<Axis> axes) {
        Map<String, Object> g = new LinkedHashMap<>();
        for (Axis a : axes) {
            g.put(a.key(), a.values().size() == 1 ? a.values().get(0) : a.values());
        }
        return g;
    }

    private static String buildProperty(String key) {
        String v = BUILD.getProperty(key, "unknown");
        return v.startsWith("${") ? "unknown" : v;
    }

    /** The build's version properties (Maven filters them), read as {@code cli.VersionInfo} does. */
    private static Properties buildProperties() {
        Properties p = new Properties();
        try (InputStream in = ResultWriter.class.getResourceAsStream("/pagefabric-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // no version resource: the manifest says "unknown" rather than failing the run
        }
        return p;
    }
}
