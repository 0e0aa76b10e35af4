package org.pagefabric.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Tidy result rows as a terminal table, CSV or JSON. */
final class RowFormat {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RowFormat() {
    }

    /** Every column of any row, in first-seen order. */
    static List<String> columns(List<Map<String, Object>> rows) {
        Set<String> cols = new LinkedHashSet<>();
        rows.forEach(r -> cols.addAll(r.keySet()));
        return new ArrayList<>(cols);
    }

    static String csv(List<Map<String, Object>> rows) {
        List<String> cols = columns(rows);
        StringBuilder b = new StringBuilder(String.join(",", cols)).append('\n');
        for (Map<String, Object> r : rows) {
            for (int i = 0; i < cols.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(csvCell(r.get(cols.get(i))));
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String csvCell(Object v) {
        if (v == null) {
            return "";
        }
        String s = String.valueOf(v);
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    static String json(List<Map<String, Object>> rows) {
        try {
            return JSON.writeValueAsString(rows) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("rows could not be written as JSON", e);
        }
    }

    /** A right-aligned table of the given columns: for numbers. */
    static String table(List<Map<String, Object>> rows, List<String> cols) {
        return render(rows, cols, true);
    }

    /** A left-aligned table: for text columns such as sources and descriptions. */
    static String leftTable(List<Map<String, Object>> rows, List<String> cols) {
        return render(rows, cols, false);
    }

    /** A GitHub-flavoured Markdown table of the given columns, for documents such as docs/FIDELITY.md. */
    static String markdown(List<Map<String, Object>> rows, List<String> cols) {
        StringBuilder b = new StringBuilder("| ").append(String.join(" | ", cols)).append(" |\n|");
        cols.forEach(c -> b.append("---|"));
        b.append('\n');
        for (Map<String, Object> r : rows) {
            b.append("| ").append(String.join(" | ", cols.stream().map(c -> cell(r.get(c)).replace("|", "\\|")
                    .replace("\n", " ")).toList())).append(" |\n");
        }
        return b.toString();
    }

    private static String render(List<Map<String, Object>> rows, List<String> cols, boolean right) {
        int[] w = new int[cols.size()];
        for (int i = 0; i < cols.size(); i++) {
            w[i] = cols.get(i).length();
            for (Map<String, Object> r : rows) {
                w[i] = Math.max(w[i], cell(r.get(cols.get(i))).length());
            }
        }
        StringBuilder b = new StringBuilder();
        line(b, cols, w, right);
        for (Map<String, Object> r : rows) {
            line(b, cols.stream().map(c -> cell(r.get(c))).toList(), w, right);
        }
        return b.toString();
    }

    /** A missing value shows as blank, as in the CSV. */
    private static String cell(Object v) {
        return v == null ? "" : String.valueOf(v);
    }

    private static void line(StringBuilder b, List<String> cells, int[] w, boolean right) {
        for (int i = 0; i < cells.size(); i++) {
            String v = cells.get(i);
            boolean last = i == cells.size() - 1;
            b.append(i == 0 ? "" : "  ").append(right ? pad(v, w[i]) : last ? v : padRight(v, w[i]));
        }
        b.append('\n');
    }

    private static String padRight(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }

    private static String pad(String s, int width) {
        return " ".repeat(Math.max(0, width - s.length())) + s;
    }
}
