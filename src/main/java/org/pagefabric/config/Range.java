package org.pagefabric.config;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The values a numeric parameter accepts, inclusive at both ends, kept in the canonical unit and
 * as written ({@code 64 B to 64 KiB}) so that a refusal reads in the units a profile uses. A
 * value outside it is refused when the profile, the grid or the {@code --set} that writes it is
 * read, never when a point runs: the bounds are what the hardware models can represent and time
 * without overflow, and wide enough for any testbed a profile describes.
 *
 * @param min  the smallest accepted value, canonical
 * @param max  the largest accepted value, canonical
 * @param text the bounds as written, for messages: {@code 1 to 1024}, {@code 1 Mbps to 1000000 GB/s}
 */
public record Range(BigDecimal min, BigDecimal max, String text) {
    /** Checks the bounds are ordered. */
    public Range {
        Objects.requireNonNull(text, "text");
        if (min.compareTo(max) > 0) {
            throw new IllegalArgumentException("range " + text + " is empty");
        }
    }

    /**
     * A range written with units of {@code d}: {@code of(SIZE, "64 B", "64 KiB")}.
     *
     * @throws IllegalArgumentException if a bound is not a number with a unit of the dimension
     */
    public static Range of(Dimension d, String min, String max) {
        return new Range(canonical(d, min), canonical(d, max), min + " to " + max);
    }

    /** The range a parameter of dimension {@code d} has unless it declares its own. */
    static Range standard(Dimension d) {
        return switch (d) {
            // 1000 s is far beyond any cost or timeout and keeps sums of them far from 2^63 ps.
            case TIME -> of(d, "0 ps", "1000 s");
            // Whole bytes per second, as the bus and link models time them: from 1 Kbps (125 B/s)
            // to the 1 PB/s they can time.
            case BANDWIDTH -> of(d, "1 Kbps", "1000000 GB/s");
            case SIZE -> of(d, "0 B", "4096 GiB");
            // Counts size tables and arrays, which Java indexes with an int.
            case COUNT -> of(d, "0", "2147483647");
            case PROBABILITY -> of(d, "0", "1");
            case RATIO -> of(d, "0", "1000");
            case FREQUENCY -> of(d, "1 MHz", "100 GHz");
            case POWER -> of(d, "0 W", "1000 kW");
            case ENERGY -> of(d, "0 J", "1 J");
            case BOOLEAN, ENUM -> null;
        };
    }

    private static BigDecimal canonical(Dimension d, String written) {
        String[] parts = written.strip().split(" ", 2);
        BigDecimal factor = d.factor(parts.length == 2 ? parts[1] : "");
        if (factor == null) {
            throw new IllegalArgumentException("'" + written + "' is not a " + d.label() + " with one of the units "
                    + d.unitList());
        }
        return new BigDecimal(parts[0]).multiply(factor);
    }

    /** Whether a canonical value lies within the range. */
    public boolean contains(BigDecimal canonical) {
        return canonical.compareTo(min) >= 0 && canonical.compareTo(max) <= 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
