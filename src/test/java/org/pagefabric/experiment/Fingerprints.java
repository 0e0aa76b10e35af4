package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the fingerprint tests share: their files' reading and writing, and the per-line digests
 * that let a failure name the first line that differs rather than only a digest.
 */
final class Fingerprints {
    /** The system property that makes a fingerprint test record what it sees instead of checking it. */
    static final String PROPERTY = "pagefabric.fingerprints";
    /** Hex digits kept of each line's SHA-256: enough to tell a changed line, short enough to store every one. */
    private static final int LINE_DIGEST_HEX = 8;
    private static final String ROWS_HEADER = "experiment,file,line_sha256_prefixes";
    /** Characters of a differing line a message quotes. */
    private static final int QUOTED = 200;

    private Fingerprints() {
    }

    /** An experiment's rows.csv and comparison table as text. */
    record Texts(String rows, String comparison) {
    }

    /** Whether the run records fingerprints ({@code -Dpagefabric.fingerprints=write}). */
    static boolean writing() {
        return "write".equals(System.getProperty(PROPERTY));
    }

    /** The lines of a file after its header, split at the first comma: key, rest. */
    static Map<String, String> read(Path file, String header) throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(header, lines.get(0), file + ": header");
        for (String line : lines.subList(1, lines.size())) {
            int comma = line.indexOf(',');
            m.put(line.substring(0, comma), line.substring(comma + 1));
        }
        return m;
    }

    /** Writes, per experiment, the digest of every line of its rows.csv and of its comparison. */
    static void writeRowDigests(Path file, Map<String, Texts> texts) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(ROWS_HEADER);
        texts.forEach((id, t) -> {
            lines.add(id + ",rows," + String.join(" ", lineDigests(t.rows())));
            lines.add(id + ",comparison," + String.join(" ", lineDigests(t.comparison())));
        });
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** The recorded line digests by {@code experiment,file}. */
    static Map<String, List<String>> readRowDigests(Path file) throws IOException {
        Map<String, List<String>> m = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(ROWS_HEADER, lines.get(0), file + ": header");
        for (String line : lines.subList(1, lines.size())) {
            int comma = line.indexOf(',', line.indexOf(',') + 1);
            String digests = line.substring(comma + 1);
            m.put(line.substring(0, comma), digests.isEmpty() ? List.of() : Arrays.asList(digests.split(" ")));
        }
        return m;
    }

    /**
     * Where {@code text} first departs from the recorded line digests: the line number (1 is the
     * header) and the line as it is now, or how the line counts differ.
     */
    static String firstDifference(String text, List<String> recorded) {
        if (recorded == null) {
            return ": no line digests recorded";
        }
        List<String> now = lineDigests(text);
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < Math.min(now.size(), recorded.size()); i++) {
            if (!now.get(i).equals(recorded.get(i))) {
                String line = lines[i];
                return ": first differs at line " + (i + 1) + ", now '"
                        + (line.length() > QUOTED ? line.substring(0, QUOTED) + "..." : line) + "'";
            }
        }
        return ": the first " + Math.min(now.size(), recorded.size()) + " lines agree; now " + now.size()
                + " lines, recorded " + recorded.size();
    }

    /** A short digest of each line of {@code text} (split at newlines, a final empty line included). */
    static List<String> lineDigests(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n", -1)) {
            out.add(sha256(line).substring(0, LINE_DIGEST_HEX));
        }
        return out;
    }

    /** SHA-256 of the UTF-8 bytes of {@code s}, in hex. */
    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
