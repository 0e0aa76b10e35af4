package org.pagefabric.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;

/**
 * Human-readable axis titles and tick labels derived from tidy column names.
 *
 * <p>Result columns carry their unit as a suffix ({@code latency_us}, {@code bandwidth_MBps},
 * {@code size_B}); a figure should say "latency (µs)" rather than the column name, and size ticks should
 * read 8, 64, 1K, 64K, 1M as in the seeds' figures rather than 1024 or 1.0E6.
 */
public final class AxisLabels {
    /** Unit suffixes and how a figure spells them; the longest matching suffix wins. */
    private static final Map<String, String> UNITS = Map.ofEntries(
            Map.entry("ps", "ps"), Map.entry("ns", "ns"), Map.entry("us", "µs"), Map.entry("ms", "ms"),
            Map.entry("s", "s"), Map.entry("B", "bytes"), Map.entry("KiB", "KiB"), Map.entry("MiB", "MiB"),
            Map.entry("GiB", "GiB"), Map.entry("KB", "KB"), Map.entry("MB", "MB"), Map.entry("GB", "GB"),
            Map.entry("Bps", "B/s"), Map.entry("KBps", "KB/s"), Map.entry("MBps", "MB/s"),
            Map.entry("GBps", "GB/s"), Map.entry("MiBps", "MiB/s"), Map.entry("GiBps", "GiB/s"),
            Map.entry("bps", "bit/s"), Map.entry("Mbps", "Mb/s"), Map.entry("Gbps", "Gb/s"),
            Map.entry("pct", "%"), Map.entry("percent", "%"), Map.entry("Hz", "Hz"), Map.entry("MHz", "MHz"),
            Map.entry("GHz", "GHz"), Map.entry("W", "W"), Map.entry("J", "J"), Map.entry("per_s", "/s"),
            Map.entry("ops", "ops/s"), Map.entry("Mops", "Mops/s"), Map.entry("pages", "pages"));

    /** Quantity names whose column name alone would be ambiguous on a figure. */
    private static final Map<String, String> NAMES = Map.of("size", "message size");

    private AxisLabels() {
    }

    /**
     * The axis title for a column: the name with underscores as spaces, then the unit in parentheses,
     * for example {@code latency_us} gives "latency (µs)" and {@code size_B} "message size (bytes)".
     */
    public static String title(String column) {
        String unitKey = unitSuffix(column);
        String name = unitKey == null ? column : column.substring(0, column.length() - unitKey.length() - 1);
        name = NAMES.getOrDefault(name, name).replace('_', ' ');
        return unitKey == null ? name : name + " (" + UNITS.get(unitKey) + ")";
    }

    /** Whether the column holds a size in bytes (suffix {@code _B}), which a log axis shows in base 2. */
    public static boolean isBytes(String column) {
        return "B".equals(unitSuffix(column));
    }

    /**
     * A byte count the way the seeds label size axes: binary multiples with K, M, G, T suffixes and at
     * most three significant digits (8, 64, 1K, 64K, 1M, 4M, 1.5K).
     */
    public static String bytes(double value) {
        String[] prefixes = {"", "K", "M", "G", "T"};
        double v = value;
        int p = 0;
        while (Math.abs(v) >= 1024 && p < prefixes.length - 1) {
            v /= 1024;
            p++;
        }
        return number(v, 3) + prefixes[p];
    }

    /**
     * A number with at most {@code digits} significant digits, without exponent or trailing zeros, so
     * that tables and labels stay short but never hide the magnitude.
     */
    public static String number(double value, int digits) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return String.valueOf(value);
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(value).round(new MathContext(digits)).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    /**
     * A table header: a column that holds a duration in picoseconds (a profile parameter's
     * canonical unit, {@code link.latency_ps}) is named without the suffix, since its cells
     * carry their unit.
     */
    static String header(String column) {
        return "ps".equals(unitSuffix(column)) ? column.substring(0, column.length() - 3) : column;
    }

    /**
     * A cell value as text in its column's unit: a duration in picoseconds as "100 ns" or
     * "1.5 us", anything else as {@link #cell(Object)}.
     */
    static String cell(String column, Object value) {
        if (value instanceof Number n && "ps".equals(unitSuffix(column))) {
            double ps = n.doubleValue();
            String[] units = {"ps", "ns", "us", "ms", "s"};
            int u = 0;
            while (Math.abs(ps) >= 1000 && u < units.length - 1) {
                ps /= 1000;
                u++;
            }
            return number(ps, 6) + " " + units[u];
        }
        return cell(value);
    }

    /** A cell value as text: numbers compactly (integers whole, others to 6 significant digits). */
    static String cell(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : number(d, 6);
        }
        return String.valueOf(value);
    }

    private static String unitSuffix(String column) {
        String best = null;
        for (String unit : UNITS.keySet()) {
            if (column.length() > unit.length() + 1 && column.endsWith("_" + unit)
                    && (best == null || unit.length() > best.length())) {
                best = unit;
            }
        }
        return best;
    }
}
