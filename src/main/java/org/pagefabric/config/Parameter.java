package org.pagefabric.config;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One cost parameter the simulator knows: a dotted name ({@code link.latency}), a dimension, one
 * line of documentation and the constraints a value must meet. Parameters are declared once, as
 * {@code public static final} fields of a layer class in {@code org.pagefabric.hw.param}
 * listed by {@link ParameterRegistry}; their default values live in the bundled {@code default}
 * profile so that every number keeps its unit and source.
 *
 * <pre>{@code
 * public static final Parameter LATENCY =
 *         Parameter.time("link.latency", "One-way latency of a link: serialisation excluded.");
 * }</pre>
 *
 * Parameters are compared by identity; the registry rejects two declarations with one name.
 */
public final class Parameter {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+");

    private final String name;
    private final Dimension dimension;
    private final String doc;
    private final boolean positive;
    private final boolean powerOfTwo;
    private final List<String> choices;
    private final boolean full;
    private final Range range;
    private String defaultValue;
    private String defaultSource;

    private Parameter(String name, Dimension dimension, String doc, boolean positive, boolean powerOfTwo,
            List<String> choices) {
        this(name, dimension, doc, positive, powerOfTwo, choices, false, Range.standard(dimension));
    }

    private Parameter(String name, Dimension dimension, String doc, boolean positive, boolean powerOfTwo,
            List<String> choices, boolean full, Range range) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("parameter name '" + name
                    + "' must be dotted lower-case words, like link.latency");
        }
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("parameter " + name + " needs one line of documentation");
        }
        this.name = name;
        this.dimension = dimension;
        this.doc = doc;
        this.positive = positive;
        this.powerOfTwo = powerOfTwo;
        this.choices = List.copyOf(choices);
        this.full = full;
        this.range = range;
    }

    /** Declares a duration (read with {@link Profile#time}). */
    public static Parameter time(String name, String doc) {
        return new Parameter(name, Dimension.TIME, doc, false, false, List.of());
    }

    /** Declares a data rate (read with {@link Profile#bandwidth}); always positive. */
    public static Parameter bandwidth(String name, String doc) {
        return new Parameter(name, Dimension.BANDWIDTH, doc, true, false, List.of());
    }

    /** Declares an amount of bytes (read with {@link Profile#size}). */
    public static Parameter size(String name, String doc) {
        return new Parameter(name, Dimension.SIZE, doc, false, false, List.of());
    }

    /** Declares a number of things (read with {@link Profile#count}). */
    public static Parameter count(String name, String doc) {
        return new Parameter(name, Dimension.COUNT, doc, false, false, List.of());
    }

    /** Declares a probability in [0, 1] (read with {@link Profile#probability}). */
    public static Parameter probability(String name, String doc) {
        return new Parameter(name, Dimension.PROBABILITY, doc, false, false, List.of());
    }

    /** Declares a non-negative dimensionless ratio (read with {@link Profile#ratio}). */
    public static Parameter ratio(String name, String doc) {
        return new Parameter(name, Dimension.RATIO, doc, false, false, List.of());
    }

    /** Declares a clock rate (read with {@link Profile#frequencyHz}); always positive. */
    public static Parameter frequency(String name, String doc) {
        return new Parameter(name, Dimension.FREQUENCY, doc, true, false, List.of());
    }

    /** Declares a switch (read with {@link Profile#flag}). */
    public static Parameter flag(String name, String doc) {
        return new Parameter(name, Dimension.BOOLEAN, doc, false, false, List.of());
    }

    /** Declares a choice among fixed lower-case names (read with {@link Profile#choice}). */
    public static Parameter choice(String name, String doc, String... choices) {
        if (choices.length == 0) {
            throw new IllegalArgumentException("parameter " + name + " needs at least one choice");
        }
        return new Parameter(name, Dimension.ENUM, doc, false, false, List.of(choices));
    }

    /** Declares an electrical power in watts (read with {@link Profile#watts}). */
    public static Parameter power(String name, String doc) {
        return new Parameter(name, Dimension.POWER, doc, false, false, List.of());
    }

    /** Declares an energy in joules (read with {@link Profile#joules}); the doc says per what. */
    public static Parameter energy(String name, String doc) {
        return new Parameter(name, Dimension.ENERGY, doc, false, false, List.of());
    }

    /**
     * The same parameter with a value of its own for profiles that do not set it: how a component
     * outside PageFabric (a user's policy) declares a cost without editing the root profile.
     * Declare it last, after {@link #positive()} and the like.
     *
     * @param value  the value as a profile writes it, with its unit: {@code "2 us"}, {@code "0.5"}
     * @param source where the value comes from, as a profile's {@code source} says it
     */
    public Parameter withDefault(String value, String source) {
        Parameter p = new Parameter(name, dimension, doc, positive, powerOfTwo, choices, full, range);
        p.defaultValue = java.util.Objects.requireNonNull(value, "value");
        p.defaultSource = java.util.Objects.requireNonNull(source, "source");
        return p;
    }

    /** The value a profile that does not set the parameter takes, or {@code null} if the root profile must set it. */
    public String defaultValue() {
        return defaultValue;
    }

    /** Where {@link #defaultValue()} comes from, or {@code null}. */
    public String defaultSource() {
        return defaultSource;
    }

    /** The same parameter, additionally required to be greater than zero. */
    public Parameter positive() {
        return new Parameter(name, dimension, doc, true, powerOfTwo, choices, full, range);
    }

    /** The same parameter, additionally required to be a power of two (page sizes, cache sets). */
    public Parameter powerOfTwo() {
        return new Parameter(name, dimension, doc, true, true, choices, full, range);
    }

    /**
     * The same parameter with a range of its own instead of its dimension's standard one, written
     * with units: {@code .between("64 B", "64 KiB")}, {@code .between("1", "1024")}. Declare the
     * range a real testbed could have and the models can take; a profile, grid or {@code --set}
     * value outside it is refused when read.
     */
    public Parameter between(String min, String max) {
        if (!dimension.numeric()) {
            throw new IllegalArgumentException("only a numeric parameter has a range: " + name);
        }
        Parameter p = new Parameter(name, dimension, doc, positive, powerOfTwo, choices, full,
                Range.of(dimension, min, max));
        p.defaultValue = defaultValue;
        p.defaultSource = defaultSource;
        return p;
    }

    /** Whether a value must be a power of two ({@link #powerOfTwo()} declared it). */
    public boolean requiresPowerOfTwo() {
        return powerOfTwo;
    }

    /** The values the parameter accepts; {@code null} for a boolean or a choice. */
    public Range range() {
        return range;
    }

    /**
     * The same count parameter, additionally accepting the word {@link #FULL} ("as many as there
     * can be", e.g. the ways of a fully associative cache level), read as {@link #FULL_VALUE}.
     */
    public Parameter acceptingFull() {
        if (dimension != Dimension.COUNT) {
            throw new IllegalArgumentException("only a count parameter can accept '" + FULL + "': " + name);
        }
        return new Parameter(name, dimension, doc, positive, powerOfTwo, choices, true, range);
    }

    /** Whether the word {@link #FULL} is a valid value. */
    public boolean acceptsFull() {
        return full;
    }

    /** The word a {@link #acceptingFull} count parameter accepts beside numbers. */
    public static final String FULL = "full";
    /** What {@link Profile#count} returns for a value written {@link #FULL}. */
    public static final long FULL_VALUE = 0;

    /** The dotted name, e.g. {@code iommu.iotlb.l1.entries}. */
    public String name() {
        return name;
    }

    /** The first dotted component, e.g. {@code iommu}: the layer that owns the parameter. */
    public String layer() {
        return name.substring(0, name.indexOf('.'));
    }

    /** What the parameter measures. */
    public Dimension dimension() {
        return dimension;
    }

    /** One line of documentation. */
    public String doc() {
        return doc;
    }

    /** For {@link Dimension#ENUM} parameters, the accepted names; empty otherwise. */
    public List<String> choices() {
        return choices;
    }

    /**
     * Checks a canonical numeric value against the declared constraints.
     *
     * @return a description of what is wrong, or {@code null} if the value is acceptable
     */
    String violation(BigDecimal canonical) {
        if (canonical.signum() < 0) {
            return "must not be negative";
        }
        if (positive && canonical.signum() == 0) {
            return "must be greater than zero";
        }
        if (dimension == Dimension.PROBABILITY && canonical.compareTo(BigDecimal.ONE) > 0) {
            return "must be a probability between 0 and 1 (or 0% and 100%)";
        }
        if (range != null && !range.contains(canonical)) {
            return "is out of range; valid: " + range;
        }
        if (dimension.integral() && canonical.stripTrailingZeros().scale() > 0) {
            return "must be a whole number of " + (dimension.canonicalUnit().isEmpty()
                    ? "items" : dimension.canonicalUnit()) + " (got " + shortText(canonical) + ")";
        }
        if (dimension.integral() && canonical.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return "is too large for a 64-bit " + dimension.label();
        }
        if (powerOfTwo) {
            long v = canonical.longValue();
            if (Long.bitCount(v) != 1) {
                return "must be a power of two (got " + v + " " + dimension.canonicalUnit()
                        + "; KB and MB are powers of 1000, KiB and MiB powers of 1024)";
            }
        }
        return null;
    }

    /** Plain digits when short, else scientific: 1e-300 must not become a 300-digit message. */
    private static String shortText(BigDecimal x) {
        BigDecimal s = x.stripTrailingZeros();
        String plain = s.toPlainString();
        return plain.length() <= 40 ? plain : s.toString();
    }

    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }
}
