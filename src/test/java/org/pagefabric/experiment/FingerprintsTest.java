package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Behaviour frozen: every bundled experiment, run with {@code --quick}, produces exactly the rows
 * and the verdicts recorded in {@code src/test/resources/fingerprints.csv}. A refactoring that
 * changes a single number fails here, naming the experiment and the first row that differs
 * (from the per-row digests of {@code src/test/resources/fingerprint-rows.csv}) with its text.
 *
 * <p>Regenerate only for an intended change, and say why in the commit:
 * {@code ./mvnw -q test -Dtest=FingerprintsTest -Dpagefabric.fingerprints=write}.
 */
class FingerprintsTest {
    private static final Path FILE = Path.of("src/test/resources/fingerprints.csv");
    private static final Path ROWS_FILE = Path.of("src/test/resources/fingerprint-rows.csv");
    private static final String HEADER = "experiment,rows_sha256,comparison_sha256";

    @Test
    void everyQuickExperimentMatchesItsFingerprint() throws IOException {
        Map<String, String> now = new LinkedHashMap<>();
        Map<String, Fingerprints.Texts> texts = new LinkedHashMap<>();
        for (String id : SpecReader.bundledIds()) {
            ExperimentSpec spec = SpecReader.bundled(id);
            if (!spec.runnable()) {
                continue;
            }
            Fingerprints.Texts t = texts(spec);
            texts.put(id, t);
            now.put(id, Fingerprints.sha256(t.rows()) + "," + Fingerprints.sha256(t.comparison()));
        }
        if (Fingerprints.writing()) {
            List<String> lines = new ArrayList<>();
            lines.add(HEADER);
            now.forEach((id, f) -> lines.add(id + "," + f));
            Files.write(FILE, lines, StandardCharsets.UTF_8);
            Fingerprints.writeRowDigests(ROWS_FILE, texts);
            return;
        }
        Map<String, String> recorded = Fingerprints.read(FILE, HEADER);
        Map<String, List<String>> rowDigests = Fingerprints.readRowDigests(ROWS_FILE);
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, String> e : now.entrySet()) {
            String id = e.getKey();
            String was = recorded.get(id);
            if (was == null) {
                differ.add(id + " (no fingerprint recorded)");
            } else if (!was.equals(e.getValue())) {
                differ.add(id + describe(id, was, e.getValue(), texts.get(id), rowDigests));
            }
        }
        for (String id : recorded.keySet()) {
            if (!now.containsKey(id)) {
                differ.add(id + " (recorded, but no longer a runnable bundled experiment)");
            }
        }
        assertTrue(differ.isEmpty(), "quick results differ from " + FILE + ": " + String.join("; ", differ));
        assertEquals(recorded.size(), now.size());
    }

    /** What differs: the files, and in each the first row whose digest is not the recorded one. */
    private static String describe(String id, String was, String now, Fingerprints.Texts t,
                                   Map<String, List<String>> rowDigests) {
        String[] w = was.split(",");
        String[] n = now.split(",");
        List<String> what = new ArrayList<>();
        if (!w[0].equals(n[0])) {
            what.add("rows.csv" + Fingerprints.firstDifference(t.rows(), rowDigests.get(id + ",rows")));
        }
        if (!w[1].equals(n[1])) {
            what.add("comparison" + Fingerprints.firstDifference(t.comparison(), rowDigests.get(id + ",comparison")));
        }
        return " (" + String.join(" and ", what) + ")";
    }

    /** The experiment's rows.csv and its comparison table, as reproduce writes them. */
    private static Fingerprints.Texts texts(ExperimentSpec spec) {
        ExperimentResult r = ExperimentRunner.run(spec, new ExperimentRunner.Options(2, true, false, Map.of()));
        String rows = ResultWriter.csv(r.rows());
        String comparison = spec.reference().isEmpty() ? "" : ResultWriter.csv(ReferenceComparison.compare(spec, r, spec));
        return new Fingerprints.Texts(rows, comparison);
    }
}
