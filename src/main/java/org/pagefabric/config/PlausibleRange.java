package org.pagefabric.config;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The values a parameter could plausibly have on the testbed its profile describes, beside the
 * one the profile uses: what {@code pagefabric sensitivity} varies to say how far a published
 * verdict rests on an unknown. Distinct from {@link Range}, which is what the models can take.
 *
 * <p>Where it comes from, in order:
 * <ol>
 *   <li>a {@code range: {low, high, reason}} the profile states beside the value (the spread of
 *       the sources: "1-3 us", the extremes a seed reports), {@link Basis#STATED};</li>
 *   <li>otherwise, for an {@code assumed:} or {@code fitted:} value of a continuous dimension
 *       ({@link #RULE_DIMENSIONS}), half to twice the value, clamped to the parameter's
 *       {@link Range}: {@link Basis#FACTOR_OF_TWO}, the rule where nothing says more;</li>
 *   <li>otherwise none: a value a seed states or a host measured is an input, and a count or a
 *       size (page size, table entries, cores) describes the machine rather than an uncertain
 *       cost, so either varies only where its profile states a range.</li>
 * </ol>
 *
 * @param low    the lowest plausible value, canonical
 * @param high   the highest plausible value, canonical
 * @param text   the bounds as a profile writes them, {@code 50 to 200 ns}
 * @param reason why these bounds: the profile's stated reason, or the rule's
 * @param basis  whether the profile states the range or the rule gives it
 */
public record PlausibleRange(BigDecimal low, BigDecimal high, String text, String reason, Basis basis) {
    /** Where a plausible range comes from. */
    public enum Basis {
        /** Stated in the profile with its reason. */
        STATED,
        /** The general rule: a factor of two either way of an assumed or fitted value. */
        FACTOR_OF_TWO
    }

    /** The dimensions whose assumed and fitted values take the factor-of-two rule. */
    public static final Set<Dimension> RULE_DIMENSIONS = java.util.Collections.unmodifiableSet(EnumSet.of(
            Dimension.TIME, Dimension.BANDWIDTH, Dimension.FREQUENCY, Dimension.PROBABILITY, Dimension.RATIO,
            Dimension.POWER, Dimension.ENERGY));

    /** The reason the rule's ranges give. */
    public static final String RULE_REASON = "no source gives a spread: a factor of two either way of the "
            + "assumed or fitted value (the general rule)";

    /** Checks the bounds. */
    public PlausibleRange {
        Objects.requireNonNull(low, "low");
        Objects.requireNonNull(high, "high");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(basis, "basis");
        if (low.compareTo(high) > 0) {
            throw new IllegalArgumentException("plausible range " + text + " is empty");
        }
    }

    /**
     * The plausible range of a resolved setting: the one its profile states, else the rule's, else
     * {@code null} (an input, a non-numeric value, or a count or size without a stated range).
     */
    public static PlausibleRange of(ResolvedSetting s) {
        if (s.stated() != null) {
            return s.stated();
        }
        Parameter p = s.parameter();
        if (s.canonical() == null || !RULE_DIMENSIONS.contains(p.dimension()) || s.citation() == null) {
            return null;
        }
        SourceCitation.Kind kind = s.citation().kind();
        if (kind != SourceCitation.Kind.ASSUMED && kind != SourceCitation.Kind.FITTED) {
            return null;
        }
        BigDecimal two = BigDecimal.valueOf(2);
        BigDecimal low = s.canonical().divide(two, MathContext.DECIMAL64);
        BigDecimal high = s.canonical().multiply(two);
        Range limit = p.range();
        if (limit != null) {
            low = low.max(limit.min());
            high = high.min(limit.max());
        }
        if (p.dimension().integral()) {
            low = low.setScale(0, java.math.RoundingMode.CEILING);
            high = high.setScale(0, java.math.RoundingMode.FLOOR);
        }
        BigDecimal factor = p.dimension().factor(s.unit());
        String text = written(low, factor) + " to " + written(high, factor) + (s.unit().isEmpty() ? "" : " " + s.unit());
        return new PlausibleRange(low.stripTrailingZeros(), high.stripTrailingZeros(), text, RULE_REASON,
                Basis.FACTOR_OF_TWO);
    }

    /** Whether the range has any width: a range of one value (a zero doubled) varies nothing. */
    public boolean varies() {
        return low.compareTo(high) < 0;
    }

    /** Whether a canonical value lies within the range. */
    public boolean contains(BigDecimal canonical) {
        return canonical.compareTo(low) >= 0 && canonical.compareTo(high) <= 0;
    }

    private static String written(BigDecimal canonical, BigDecimal factor) {
        BigDecimal v = factor == null || factor.signum() == 0 ? canonical
                : canonical.divide(factor, MathContext.DECIMAL64);
        return v.round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return text;
    }
}
