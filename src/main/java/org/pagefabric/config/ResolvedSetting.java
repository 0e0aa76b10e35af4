package org.pagefabric.config;

import java.math.BigDecimal;

/**
 * The value a resolved profile gives one parameter, with everything needed to say where it came
 * from: the value as written, its unit, its source, and the profile, file and line that set it.
 *
 * @param parameter the parameter
 * @param canonical the value in the dimension's canonical unit (ps, B/s, B, Hz, plain number);
 *        {@code null} for boolean and enum parameters
 * @param text the value as written ({@code 150}, {@code true}, {@code lru})
 * @param unit the unit as written, empty if none
 * @param source the provenance text as written
 * @param citation the parsed provenance
 * @param profile the name of the profile that set the value
 * @param file the file that set it
 * @param line the line in that file
 * @param stated the plausible range the profile states beside the value ({@code range:}), or {@code null}
 */
public record ResolvedSetting(Parameter parameter, BigDecimal canonical, String text, String unit, String source,
        SourceCitation citation, String profile, String file, int line, PlausibleRange stated) {

    /**
     * The values the parameter could plausibly have: the stated range, else the factor-of-two rule
     * for an assumed or fitted cost, else {@code null}; see {@link PlausibleRange}.
     */
    public PlausibleRange plausible() {
        return PlausibleRange.of(this);
    }

    /** "profile (file:line)", for dumps and messages. */
    public String origin() {
        return profile + " (" + file + ":" + line + ")";
    }

    /** The value with its unit as written, e.g. {@code 150 ns}. */
    public String written() {
        return unit.isEmpty() ? text : text + " " + unit;
    }
}
