package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static ExperimentResult result;

    @BeforeAll
    static void run() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL.replace("  iterations: 3",
                "  iterations: 3\n  link.loss: [\"0\", \"1%\"]"));
        result = ExperimentRunner.run(spec, new ExperimentRunner.Options(2, false, false, Map.of()));
    }

    /** Splits CSV text into records of cells, undoing the writer's quoting. */
    private static List<List<String>> parseCsv(String text) {
        List<List<String>> out = new ArrayList<>();
        List<String> rec = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                rec.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\n') {
                rec.add(cell.toString());
                cell.setLength(0);
                out.add(rec);
                rec = new ArrayList<>();
            } else {
                cell.append(c);
            }
        }
        return out;
    }

    @Test
    void csvAndJsonReadBackToTheRows(@TempDir Path dir) throws Exception {
        ResultWriter.write(result, dir);
        for (String f : ResultWriter.FILES) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
        List<Map<String, Object>> rows = result.rows();
        List<List<String>> csv = parseCsv(Files.readString(dir.resolve("rows.csv")));
        List<String> header = csv.get(0);
        assertEquals(List.copyOf(rows.get(0).keySet()), header);
        assertEquals(rows.size() + 1, csv.size());
        for (int i = 0; i < rows.size(); i++) {
            for (int c = 0; c < header.size(); c++) {
                Object v = rows.get(i).get(header.get(c));
                // A missing value (e.g. the hit rate of a policy that keeps none) is an empty cell.
                assertEquals(v == null ? "" : String.valueOf(v), csv.get(i + 1).get(c),
                        "row " + i + " column " + header.get(c));
            }
        }
        List<Map<String, Object>> json = JSON.readValue(dir.resolve("rows.json").toFile(), new TypeReference<>() {
        });
        assertEquals(rows.size(), json.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(List.copyOf(rows.get(i).keySet()), List.copyOf(json.get(i).keySet()));
            for (Map.Entry<String, Object> e : rows.get(i).entrySet()) {
                Object back = json.get(i).get(e.getKey());
                if (e.getValue() instanceof Number n) {
                    assertEquals(n.doubleValue(), ((Number) back).doubleValue(), 0.0, e.getKey());
                    assertEquals(n instanceof Double, back instanceof Double, e.getKey() + " keeps its kind");
                } else {
                    assertEquals(e.getValue(), back, e.getKey());
                }
            }
        }
    }

    @Test
    void quotingInCsv() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("title", "a, \"b\"");
        row.put("n", 1L);
        assertEquals("title,n\n\"a, \"\"b\"\"\",1\n", ResultWriter.csv(List.of(row)));
        assertEquals(List.of(List.of("title", "n"), List.of("a, \"b\"", "1")), parseCsv(ResultWriter.csv(List.of(row))));
    }

    @Test
    void manifestSaysWhatRanAndNotTheThreadCount(@TempDir Path dir) throws Exception {
        ResultWriter.write(result, dir);
        Map<String, Object> m = JSON.readValue(dir.resolve("manifest.json").toFile(), new TypeReference<>() {
        });
        assertEquals("test.small", m.get("experiment"));
        assertEquals("Latency of two sizes", m.get("title"));
        assertEquals("test.yaml", m.get("spec_file"));
        assertEquals(7, m.get("seed"));
        assertEquals(2, m.get("repetitions"));
        assertEquals(false, m.get("quick"));
        assertEquals(true, m.get("complete"));
        assertEquals(8, m.get("points"));
        assertEquals(8, m.get("rows"));
        assertTrue(m.containsKey("pagefabric_version") && m.containsKey("git_commit") && m.containsKey("jvm"));
        assertFalse(m.keySet().stream().anyMatch(k -> k.contains("thread")), m.keySet().toString());
    }

    @Test
    void anIncompleteRunSaysSoInItsManifest(@TempDir Path dir) throws Exception {
        ExperimentRunner runner = new ExperimentRunner(Specs.parse(Specs.SMALL),
                new ExperimentRunner.Options(1, false, false, Map.of()));
        runner.cancel();
        ResultWriter.write(runner.run(), dir);
        Map<String, Object> m = JSON.readValue(dir.resolve("manifest.json").toFile(), new TypeReference<>() {
        });
        assertEquals(false, m.get("complete"));
        assertEquals(4, m.get("points"));
        assertEquals(0, m.get("rows"));
    }

    @Test
    void resolvedSpecReadsBackToTheSamePointsAndCarriesTheProfile(@TempDir Path dir) throws Exception {
        ExperimentRunner runner = new ExperimentRunner(Specs.parse(Specs.SMALL),
                new ExperimentRunner.Options(1, true, false, Map.of("link.loss", "1%")));
        runner.cancel();
        ExperimentResult r = runner.run();
        ResultWriter.write(r, dir);
        String text = Files.readString(dir.resolve("spec.resolved.yaml"));
        assertTrue(text.startsWith("# Resolved experiment spec: defaults filled in, --quick applied, --set"
                + " link.loss=1%.\n"), text);
        int split = text.indexOf("\n---\n");
        assertTrue(split > 0, "two documents");
        ExperimentSpec back = SpecReader.parse("resolved.yaml", text.substring(0, split + 1), dir);
        assertEquals(Grid.expand(runner.spec()).stream().map(ExperimentPoint::label).toList(),
                Grid.expand(back).stream().map(ExperimentPoint::label).toList());
        assertEquals(runner.spec().metrics(), back.metrics());
        assertEquals(runner.spec().plot(), back.plot());
        assertEquals(runner.spec().reference(), back.reference());
        assertEquals(1, back.repetitions());
        assertTrue(text.substring(split).contains("name: default\n"), "the resolved profile follows");
        assertTrue(text.substring(split).contains("  link.loss: {value: "), "every parameter is dumped");
    }

    @Test
    void resultsStayInAChildOfTheOutputDirectory(@TempDir Path root) throws Exception {
        assertEquals(root.toAbsolutePath().resolve("run.latency"), ResultWriter.directoryFor(root, "run.latency"));
        for (String id : List.of("..", ".", "", "../x", "a/b", "/tmp/x", "a/../../x")) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> ResultWriter.directoryFor(root.resolve("out"), id), id);
            assertTrue(e.getMessage().contains("outside"), e.getMessage());
        }
        Path elsewhere = Files.createDirectory(root.resolve("elsewhere"));
        Path out = Files.createDirectory(root.resolve("out"));
        Files.createSymbolicLink(out.resolve("planted"), elsewhere);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ResultWriter.directoryFor(out, "planted"));
        assertTrue(e.getMessage().contains("links outside"), e.getMessage());
    }
}
