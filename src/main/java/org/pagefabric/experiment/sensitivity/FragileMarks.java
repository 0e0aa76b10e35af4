package org.pagefabric.experiment.sensitivity;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts a stored sensitivity study's findings beside a comparison with the paper: each row of a
 * published number gains {@code band}, {@code robustness} and {@code hinges_on}, so that the
 * table and report of {@code reproduce} show which verdicts are fragile and on what.
 */
public final class FragileMarks {
    /** The columns added to a comparison row. */
    public static final List<String> COLUMNS = List.of("band", "robustness", "hinges_on");

    private FragileMarks() {
    }

    /**
     * The comparison rows with the stored study's columns, or {@code null} when {@code dir} holds
     * no study made with these options.
     *
     * @param dir        the experiment's result directory ({@code DIR/ID})
     * @param comparison the rows of {@code ReferenceComparison}
     * @param quick      whether the comparison's run was {@code --quick}
     * @param sets       its {@code --set} values
     */
    public static List<Map<String, Object>> mark(Path dir, List<Map<String, Object>> comparison, boolean quick,
            Map<String, String> sets) {
        Map<String, SensitivityFiles.Stored> stored = SensitivityFiles.read(dir, quick, sets);
        if (stored.isEmpty()) {
            return null;
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> row : comparison) {
            Map<String, Object> marked = new LinkedHashMap<>(row);
            SensitivityFiles.Stored s = stored.get(SensitivityFiles.key(row.get("series"), row.get("x"),
                    row.get("metric"), row.get("tolerance")));
            marked.put("band", s == null ? null : s.band());
            marked.put("robustness", s == null ? null : s.robustness());
            marked.put("hinges_on", s == null ? null : s.hingesOn());
            out.add(marked);
        }
        return out;
    }

    /** How many marked rows are fragile, and on what: one line, or {@code null} if none is. */
    public static String fragileLine(List<Map<String, Object>> marked) {
        List<String> parts = new ArrayList<>();
        for (Map<String, Object> r : marked) {
            if (SensitivityResult.FRAGILE.equals(r.get("robustness"))) {
                parts.add(r.get("series") + (r.get("x") == null ? "" : " at " + r.get("x")) + " " + r.get("metric")
                        + " (" + r.get("hinges_on") + ")");
            }
        }
        return parts.isEmpty() ? null : parts.size() + " fragile: " + String.join("; ", parts);
    }
}
