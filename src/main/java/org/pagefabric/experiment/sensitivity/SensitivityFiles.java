package org.pagefabric.experiment.sensitivity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a sensitivity study's results live beside an experiment's ({@code DIR/ID/}), and how a
 * later {@code reproduce} reads its verdicts back to mark the fragile ones.
 */
public final class SensitivityFiles {
    /** The whole result: options, parameters, bands, failed runs. */
    public static final String JSON = "sensitivity.json";
    /** The bands, one row per published number. */
    public static final String CSV = "sensitivity.csv";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SensitivityFiles() {
    }

    /**
     * What a stored study says of each published number, for a run with the same options.
     *
     * @param band       {@code min .. max} of ours, or {@code null}
     * @param robustness {@link SensitivityResult#ROBUST}, {@link SensitivityResult#FRAGILE} or not comparable
     * @param hingesOn   the runs that turn the verdict, or {@code null}
     */
    public record Stored(String band, String robustness, String hingesOn) {
    }

    /**
     * The bands stored in {@code dir} for a run with these options, keyed by series, x, metric and tolerance
     * ({@link #key}); empty if there is none, it is unreadable, or it was made with other
     * {@code --quick} or {@code --set} options (its verdicts would be another set-up's).
     */
    public static Map<String, Stored> read(Path dir, boolean quick, Map<String, String> sets) {
        Path file = dir.resolve(JSON);
        Map<String, Stored> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        try {
            JsonNode doc = MAPPER.readTree(file.toFile());
            if (doc.path("quick").asBoolean(!quick) != quick || !sets.equals(MAPPER.convertValue(doc.path("sets"),
                    Map.class))) {
                return out;
            }
            for (JsonNode b : doc.path("bands")) {
                out.put(key(text(b.get("series")), text(b.get("x")), text(b.get("metric")), text(b.get("tolerance"))),
                        new Stored(text(b.get("band")), text(b.get("robustness")), text(b.get("hinges_on"))));
            }
        } catch (IOException | IllegalArgumentException e) {
            return new LinkedHashMap<>();
        }
        return out;
    }

    /** The key a comparison row and a stored band share: two claims on one number differ in tolerance. */
    public static String key(Object series, Object x, Object metric, Object tolerance) {
        List<String> parts = new ArrayList<>();
        for (Object o : new Object[] {series, x, metric, tolerance}) {
            parts.add(o == null ? "" : o instanceof Number n ? new java.math.BigDecimal(n.toString()).stripTrailingZeros()
                    .toPlainString() : String.valueOf(o));
        }
        return String.join("\u0000", parts);
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.isNumber() ? n.decimalValue().stripTrailingZeros().toPlainString()
                : n.asText();
    }
}
