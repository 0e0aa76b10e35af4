package org.pagefabric.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Message sizes from the command line: a comma list ({@code 8,64,4K}) or a doubling range
 * ({@code 8..4M}); suffixes K, M, G are binary (KiB, MiB, GiB), as message sizes are.
 */
final class SizeList {
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
            for (long s = from; s <= to; s *= 2) {
                out.add(s);
            }
            return out;
        }
        for (String part : t.split(",")) {
            out.add(size(part, text));
        }
        return out;
    }

    private static long size(String s, String whole) {
        String v = s.trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        if (v.endsWith("B")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("KI") || v.endsWith("MI") || v.endsWith("GI")) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("K")) {
            mult = 1L << 10;
        } else if (v.endsWith("M")) {
            mult = 1L << 20;
        } else if (v.endsWith("G")) {
            mult = 1L << 30;
        }
        if (mult > 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v.trim()) * mult;
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--sizes " + whole + ": '" + s.trim()
                    + "' is not a positive size (valid: 8, 4K, 1M, 8..4M, 8,64,4K)");
        }
    }
}
