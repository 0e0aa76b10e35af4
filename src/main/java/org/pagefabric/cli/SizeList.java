package org.pagefabric.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Message sizes from the command line: a comma list ({@code 8,64,4K}) or a doubling range
 * ({@code 8..4M}); suffixes K, M, G are binary (KiB, MiB, GiB), as message sizes are.
 */
final class SizeList {
    /**
     * The most sizes one option may give: a doubling range over every positive {@code long} has
     * 63, and a list longer than this is a typo or an attack, not a sweep anyone waits for.
     */
    static final int MAX_SIZES = 64;

    private static final String VALID = " (valid: 8, 4K, 1M, 8..4M, 8,64,4K)";

    private SizeList() {
    }

    static List<Long> parse(String text) {
        String t = text.trim();
        List<Long> out = new ArrayList<>();
        int dots = t.indexOf("..");
        if (dots >= 0) {
            long from = size(t.substring(0, dots), text);
            long to = size(t.substring(dots + 2), text);
            if (from > to) {
                throw new IllegalArgumentException("--sizes " + text + ": the range runs backwards");
            }
            // doubling stops before it would pass Long.MAX_VALUE, so a range up to any long ends
            for (long s = from; ; s *= 2) {
                out.add(s);
                if (s > to / 2) {
                    break;
                }
            }
            return out;
        }
        String[] parts = t.split(",", -1);
        if (parts.length > MAX_SIZES) {
            throw new IllegalArgumentException("--sizes: " + parts.length + " sizes; at most " + MAX_SIZES
                    + " per run");
        }
        for (String part : parts) {
            out.add(size(part, text));
        }
        return out;
    }

    private static long size(String s, String whole) {
        String v = s.trim().toUpperCase(Locale.ROOT);
        int shift = 0;
        if (v.endsWith("B")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("KI") || v.endsWith("MI") || v.endsWith("GI")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("K")) {
            shift = 10;
        } else if (v.endsWith("M")) {
            shift = 20;
        } else if (v.endsWith("G")) {
            shift = 30;
        }
        if (shift > 0) {
            v = v.substring(0, v.length() - 1).trim();
        }
        // Long.parseLong takes any Unicode digit (Arabic-Indic eight reads as 8): sizes are ASCII
        if (v.isEmpty() || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("--sizes " + whole + ": '" + s.trim()
                    + "' is not a size in ASCII digits with an optional K, M or G" + VALID);
        }
        long n;
        try {
            n = Math.multiplyExact(Long.parseLong(v), 1L << shift);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("--sizes " + whole + ": '" + s.trim()
                    + "' is larger than " + Long.MAX_VALUE + " bytes");
        }
        if (n <= 0) {
            throw new IllegalArgumentException("--sizes " + whole + ": '" + s.trim()
                    + "' is not a positive size" + VALID);
        }
        return n;
    }
}
