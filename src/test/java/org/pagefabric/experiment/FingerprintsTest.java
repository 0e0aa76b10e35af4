package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Behaviour frozen: every bundled experiment, run with {@code --quick}, produces exactly the rows
 * and the verdicts recorded in {@code src/test/resources/fingerprints.csv}. A refactoring that
 * changes a single number fails here, naming the experiment.
 *
 * <p>Regenerate only for an intended change, and say why in the commit:
 * {@code ./mvnw -q test -Dtest=FingerprintsTest -Dpagefabric.fingerprints=write}.
 */
class FingerprintsTest {
    private static final Path FILE = Path.of("src/test/resources/fingerprints.csv");
    private static final String HEADER = "experiment,rows_sha256,comparison_sha256";

    @Test
    void everyQuickExperimentMatchesItsFingerprint() throws IOException {
        Map<String, String> now = new LinkedHashMap<>();
        for (String id : SpecReader.bundledIds()) {
            ExperimentSpec spec = SpecReader.bundled(id);
            if (!spec.runnable()) {
                continue;
            }
            now.put(id, fingerprint(spec));
        }
        if ("write".equals(System.getProperty("pagefabric.fingerprints"))) {
            List<String> lines = new ArrayList<>();
            lines.add(HEADER);
            now.forEach((id, f) -> lines.add(id + "," + f));
            Files.write(FILE, lines, StandardCharsets.UTF_8);
            return;
        }
        Map<String, String> recorded = read();
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, String> e : now.entrySet()) {
            String was = recorded.get(e.getKey());
            if (was == null) {
                differ.add(e.getKey() + " (no fingerprint recorded)");
            } else if (!was.equals(e.getValue())) {
                differ.add(e.getKey() + describe(was, e.getValue()));
            }
        }
        for (String id : recorded.keySet()) {
            if (!now.containsKey(id)) {
                differ.add(id + " (recorded, but no longer a runnable bundled experiment)");
            }
        }
        assertTrue(differ.isEmpty(), "quick results differ from src/test/resources/fingerprints.csv: "
                + String.join("; ", differ));
        assertEquals(recorded.size(), now.size());
    }

    private static String describe(String was, String now) {
        String[] w = was.split(",");
        String[] n = now.split(",");
        List<String> what = new ArrayList<>();
        if (!w[0].equals(n[0])) {
            what.add("rows.csv");
        }
        if (!w[1].equals(n[1])) {
            what.add("comparison");
        }
        return " (" + String.join(" and ", what) + ")";
    }

    private static Map<String, String> read() throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(FILE, StandardCharsets.UTF_8);
        assertEquals(HEADER, lines.get(0), FILE + ": header");
        for (String line : lines.subList(1, lines.size())) {
            int comma = line.indexOf(',');
            m.put(line.substring(0, comma), line.substring(comma + 1));
        }
        return m;
    }

    /** SHA-256 of the experiment's rows.csv and of its comparison table, as reproduce writes them. */
    private static String fingerprint(ExperimentSpec spec) {
        ExperimentResult r = ExperimentRunner.run(spec, new ExperimentRunner.Options(2, true, false, Map.of()));
        String rows = ResultWriter.csv(r.rows());
        String comparison = spec.reference().isEmpty() ? "" : ResultWriter.csv(ReferenceComparison.compare(spec, r, spec));
        return sha256(rows) + "," + sha256(comparison);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
