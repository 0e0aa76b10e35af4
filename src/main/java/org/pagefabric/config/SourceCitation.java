package org.pagefabric.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a value comes from, parsed from its {@code source} text. Four kinds, told apart by the
 * text's start so that a reader (and the outcome-leakage test) sees at once whether a number is
 * an input taken from a seed, an assumption, or a measurement:
 *
 * <ul>
 *   <li>{@code 000 §III-A: R5 co-processor adds about 3 us} — a seed (three digits), where in it
 *       (section, table, figure or slide), and what it says;</li>
 *   <li>{@code published: <document, file or line>: <what it states>} — an input cost a public
 *       source outside the seeds states (a data set, vendor or kernel documentation, an issue
 *       thread, a paper), for the experiments beyond the seeds;</li>
 *   <li>{@code assumed: <why this value is reasonable>};</li>
 *   <li>{@code measured: <on what host, how>}, e.g. by {@code pagefabric calibrate};</li>
 *   <li>{@code override: <where>} — a value an experiment set for one run (a grid key or
 *       {@code --set}), see {@link Profile#withOverrides}; a dumped derived profile says so,
 *       and still loads back;</li>
 *   <li>{@code fitted: <experiment>#<reference id> by <how>} — a cost no seed gives, calibrated on
 *       one published aggregate of one experiment ({@code pagefabric fit}); that reference is then
 *       a calibration target, and every other published number validates the model.</li>
 * </ul>
 *
 * @param kind which of the kinds
 * @param seed the three-digit seed id for {@link Kind#SEED}, else {@code null}
 * @param location where in the seed ({@code §V}, {@code Table 1}, {@code §V Fig. 8}); for
 *                 {@link Kind#FITTED} the calibration target {@code experiment#reference}; else {@code null}
 * @param text the explanation after the colon
 */
public record SourceCitation(Kind kind, String seed, String location, String text) {
    private static final Pattern SEED = Pattern.compile("(\\d{3}) ([^:]{1,80}?): (\\S.*)", Pattern.DOTALL);
    private static final Pattern OTHER = Pattern.compile("(assumed|measured|override|published): (\\S.*)", Pattern.DOTALL);
    private static final Pattern FITTED = Pattern.compile("fitted: ([a-z0-9._-]+#[a-z0-9_]+)(?:\\s+(\\S.*))?",
            Pattern.DOTALL);

    /** The kinds of provenance. */
    public enum Kind {
        /** A value a seed states as an input cost of its testbed. */
        SEED,
        /** A value a public source outside the seeds states, cited by document, file or line. */
        PUBLISHED,
        /** A value the seeds do not give, chosen for a stated reason. */
        ASSUMED,
        /** A value measured on a real host. */
        MEASURED,
        /** A value an experiment set for one run, on top of a profile. */
        OVERRIDE,
        /** A value calibrated on one published aggregate, named by {@link #location()}. */
        FITTED
    }

    /** What a valid source looks like, for error messages. */
    public static final String FORMS = "a seed citation like \"000 §III-A: the R5 co-processor adds about 3 us\","
            + " or \"published: <document, file or line>: <what it states>\", or \"assumed: <reason>\","
            + " or \"measured: <host and method>\", or \"fitted: <experiment>#<reference id>"
            + " by <how>\"";

    /** The calibration target {@code experiment#reference} of a fitted value, or {@code null}. */
    public String calibrationTarget() {
        return kind == Kind.FITTED ? location : null;
    }

    /**
     * Parses a source text.
     *
     * @return the citation, or {@code null} if the text has none of the forms
     */
    public static SourceCitation parse(String source) {
        if (source == null) {
            return null;
        }
        String s = source.strip();
        Matcher m = SEED.matcher(s);
        if (m.matches()) {
            return new SourceCitation(Kind.SEED, m.group(1), m.group(2).strip(), m.group(3).strip());
        }
        m = FITTED.matcher(s);
        if (m.matches()) {
            return new SourceCitation(Kind.FITTED, null, m.group(1), m.group(2) == null ? "" : m.group(2).strip());
        }
        m = OTHER.matcher(s);
        if (m.matches()) {
            Kind k = switch (m.group(1)) {
                case "assumed" -> Kind.ASSUMED;
                case "measured" -> Kind.MEASURED;
                case "published" -> Kind.PUBLISHED;
                default -> Kind.OVERRIDE;
            };
            return new SourceCitation(k, null, null, m.group(2).strip());
        }
        return null;
    }
}
