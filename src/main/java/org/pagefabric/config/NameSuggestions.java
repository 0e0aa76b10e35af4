package org.pagefabric.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** "Did you mean" for misspelt names: edit distance, with names sharing the typed prefix first. */
public final class NameSuggestions {
    private NameSuggestions() {
    }

    /** Up to {@code max} of {@code known}, closest to {@code typed} first; ties break by name. */
    public static List<String> closest(String typed, Collection<String> known, int max) {
        String t = typed.toLowerCase(Locale.ROOT);
        record Scored(String name, int score) {
        }
        List<Scored> scored = new ArrayList<>();
        for (String k : known) {
            int d = distance(t, k.toLowerCase(Locale.ROOT));
            // A name that contains what was typed (e.g. "latency") is a good guess even when far in edits.
            if (k.contains(t) || t.contains(k)) {
                d = Math.min(d, 2);
            }
            scored.add(new Scored(k, d));
        }
        scored.sort(Comparator.comparingInt(Scored::score).thenComparing(Scored::name));
        List<String> out = new ArrayList<>();
        for (Scored s : scored) {
            if (out.size() == max) {
                break;
            }
            out.add(s.name());
        }
        return out;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
