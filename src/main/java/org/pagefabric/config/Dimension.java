package org.pagefabric.config;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a parameter measures, and the units it may be written in. Every numeric dimension has a
 * canonical unit that the simulator computes in: picoseconds for time, bytes per second for
 * bandwidth, bytes for size, hertz for frequency, a plain number for counts, probabilities and
 * ratios. Conversion factors are exact decimals, so {@code 2.33 GHz} or {@code 0.06 ns} convert
 * without floating-point error.
 */
public enum Dimension {
    /** A duration; canonical unit picoseconds, always a whole number. */
    TIME("ps", true, units(
            "ps", "1", "ns", "1000", "us", "1000000", "\u00b5s", "1000000", "\u03bcs", "1000000",
            "ms", "1000000000", "s", "1000000000000")),
    /**
     * A data rate; canonical unit bytes per second. Decimal prefixes are powers of 1000 (network
     * convention, {@code 10 Gbps} is 1.25e9 B/s), binary prefixes powers of 1024.
     */
    BANDWIDTH("B/s", false, units(
            "bps", "0.125", "b/s", "0.125", "Kbps", "125", "Kb/s", "125", "Mbps", "125000", "Mb/s", "125000",
            "Gbps", "125000000", "Gb/s", "125000000", "B/s", "1", "KB/s", "1000", "MB/s", "1000000",
            "GB/s", "1000000000", "KiB/s", "1024", "MiB/s", "1048576", "GiB/s", "1073741824")),
    /** An amount of memory or data; canonical unit bytes, always a whole number. KB is 1000 B, KiB 1024 B. */
    SIZE("B", true, units(
            "B", "1", "KB", "1000", "KiB", "1024", "MB", "1000000", "MiB", "1048576",
            "GB", "1000000000", "GiB", "1073741824")),
    /** A number of things (entries, cores, ways); a whole number, written without a unit. */
    COUNT("", true, units("", "1")),
    /** A probability between 0 and 1, written as a fraction or with {@code %}. */
    PROBABILITY("", false, units("", "1", "%", "0.01")),
    /** A dimensionless ratio (a fraction of memory, a speed-up), written plain, with {@code %} or {@code x}. */
    RATIO("", false, units("", "1", "%", "0.01", "x", "1")),
    /** A clock rate; canonical unit hertz, always a whole number. */
    FREQUENCY("Hz", true, units("Hz", "1", "KHz", "1000", "MHz", "1000000", "GHz", "1000000000")),
    /** A switch, written {@code true} or {@code false} without a unit. */
    BOOLEAN("", false, Map.of()),
    /** One of a fixed set of names declared with the parameter, written without a unit. */
    ENUM("", false, Map.of()),
    /** An electrical power; canonical unit watts. */
    POWER("W", false, units("W", "1", "mW", "0.001", "uW", "0.000001", "kW", "1000")),
    /** An amount of energy (per byte or per packet where the parameter says so); canonical unit joules. */
    ENERGY("J", false, units("J", "1", "mJ", "0.001", "uJ", "0.000001", "nJ", "0.000000001",
            "pJ", "0.000000000001"));

    private final String canonicalUnit;
    private final boolean integral;
    private final Map<String, BigDecimal> factors;

    Dimension(String canonicalUnit, boolean integral, Map<String, BigDecimal> factors) {
        this.canonicalUnit = canonicalUnit;
        this.integral = integral;
        this.factors = factors;
    }

    private static Map<String, BigDecimal> units(String... pairs) {
        Map<String, BigDecimal> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], new BigDecimal(pairs[i + 1]));
        }
        return Collections.unmodifiableMap(m);
    }

    /** The unit the simulator computes in ({@code ps}, {@code B/s}, {@code B}, {@code Hz}, or empty). */
    public String canonicalUnit() {
        return canonicalUnit;
    }

    /** Whether canonical values must be whole numbers (picoseconds, bytes, hertz, counts). */
    public boolean integral() {
        return integral;
    }

    /** Whether values of this dimension are numbers (everything but boolean and enum). */
    public boolean numeric() {
        return !factors.isEmpty();
    }

    /** The unit symbols accepted for this dimension, in a stable order; empty string means "no unit". */
    public Set<String> units() {
        return factors.keySet();
    }

    /** The accepted units as a human-readable list for error messages. */
    public String unitList() {
        StringBuilder sb = new StringBuilder();
        for (String u : factors.keySet()) {
            if (u.startsWith("\u00b5") || u.startsWith("\u03bc")) {
                continue;   // the micro-sign spellings are accepted quietly; "us" is the documented one
            }
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(u.isEmpty() ? "(none)" : u);
        }
        return sb.toString();
    }

    /** The exact factor from {@code unit} to the canonical unit, or {@code null} if the unit is not valid here. */
    public BigDecimal factor(String unit) {
        return factors.get(unit == null ? "" : unit);
    }

    /** Lower-case name as written in documentation and error messages. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
