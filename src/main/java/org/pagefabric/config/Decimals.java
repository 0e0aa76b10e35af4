package org.pagefabric.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The decimal numbers a profile, a grid or a {@code --set} may write: ASCII digits, an optional
 * sign, fraction and exponent of at most three digits, and YAML's {@code _} separators. Java's
 * own parsers are too lenient for user input: {@link BigDecimal} reads Arabic-Indic digits
 * ({@code ٨} as 8) and any exponent up to 2^31, and {@link Double#parseDouble} reads
 * {@code NaN} and {@code Infinity}.
 */
public final class Decimals {
    private static final Pattern DECIMAL =
            Pattern.compile("[+-]?([0-9][0-9_]*(\\.[0-9_]*)?|\\.[0-9][0-9_]*)([eE][+-]?[0-9]{1,3})?");
    /** The longest number text read. */
    public static final int MAX_LENGTH = 100;
    /** What the messages suggest. */
    public static final String EXAMPLES = "write a decimal number such as 150, 2.33 or 1e-3";

    private Decimals() {
    }

    /**
     * What is wrong with {@code text} as a number, or {@code null} if it is one.
     *
     * @return a one-line problem quoting the text and saying what would be valid
     */
    public static String problem(String text) {
        String t = text.strip();
        if (t.length() > MAX_LENGTH) {
            // Parsing a million digits costs seconds; no value a model takes needs a hundred.
            return "'" + abbreviate(t) + "' is longer than " + MAX_LENGTH + " characters; " + EXAMPLES;
        }
        if (DECIMAL.matcher(t).matches()) {
            return null;
        }
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.contains("nan") || lower.contains("inf")) {
            return "'" + abbreviate(t) + "' is not a finite number; " + EXAMPLES;
        }
        if (t.codePoints().anyMatch(c -> Character.isDigit(c) && (c < '0' || c > '9'))) {
            return "'" + abbreviate(t) + "' is not a number: only the ASCII digits 0-9 are; " + EXAMPLES;
        }
        if (t.matches("[+-]?[0-9._]*[eE][+-]?[0-9]{4,}")) {
            return "'" + abbreviate(t) + "' has an exponent beyond 999; " + EXAMPLES;
        }
        return "'" + abbreviate(t) + "' is not a number; " + EXAMPLES;
    }

    /**
     * The value of a number {@link #problem} accepts.
     *
     * @throws IllegalArgumentException if {@code text} is not one
     */
    public static BigDecimal parse(String text) {
        String problem = problem(text);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new BigDecimal(text.strip().replace("_", ""));
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
