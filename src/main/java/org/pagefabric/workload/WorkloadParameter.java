package org.pagefabric.workload;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pagefabric.config.Dimension;

/**
 * One parameter a workload declares: name (with its unit in the name, as every column is),
 * type, default, unit and one line of documentation, plus the range a value must lie in. The
 * declarations drive the validation of experiment grids and {@code --set} values, and what
 * {@code info} prints, in the manner of SST's declared component parameters.
 *
 * @param name         the parameter and column name, e.g. {@code size_B}
 * @param type         what kind of value it takes
 * @param defaultValue the value used when a spec or command line does not give one
 * @param unit         the unit of the value ({@code B}), or empty for a plain number
 * @param doc          one line saying what the parameter controls
 * @param min          the smallest accepted value (integers only)
 * @param max          the largest accepted value (integers only)
 * @param choices      the accepted values of a {@link Type#CHOICE}; empty for the other types
 */
public record WorkloadParameter(String name, Type type, Object defaultValue, String unit, String doc, long min,
        long max, List<String> choices) {
    private static final Pattern NUMBER_AND_UNIT = Pattern.compile("\\s*([0-9][0-9_]*)\\s*([A-Za-z]*)\\s*");

    /** The kinds of value a workload parameter takes. */
    public enum Type {
        /** A whole number, stored as a {@link Long}. */
        INTEGER,
        /** A switch, stored as a {@link Boolean}. */
        BOOLEAN,
        /** A real number in {@code [min, max]} (a ratio, a rate), stored as a {@link Double}. */
        DECIMAL,
        /** A real number above {@code min} and at most {@code max} (a share that must not be 0), stored as a {@link Double}. */
        DECIMAL_ABOVE_MIN,
        /** One of a fixed list of names, stored as a {@link String}. */
        CHOICE,
        /** A path to a file the workload reads (a trace), stored as a {@link String}; empty for none. */
        FILE
    }

    /** Checks the declaration itself: a bad default is a programming error, found at class load. */
    public WorkloadParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(unit, "unit");
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("workload parameter " + name + " needs one line of documentation");
        }
        if (min > max) {
            throw new IllegalArgumentException("workload parameter " + name + ": min " + min + " > max " + max);
        }
        choices = List.copyOf(choices);
    }

    /** A parameter of a type without choices. */
    public WorkloadParameter(String name, Type type, Object defaultValue, String unit, String doc, long min, long max) {
        this(name, type, defaultValue, unit, doc, min, max, List.of());
    }

    /** Declares a whole-number parameter in {@code [min, max]}. */
    public static WorkloadParameter integer(String name, long defaultValue, String unit, String doc, long min, long max) {
        WorkloadParameter p = new WorkloadParameter(name, Type.INTEGER, defaultValue, unit, doc, min, max);
        p.coerce(defaultValue);
        return p;
    }

    /** Declares a switch. */
    public static WorkloadParameter flag(String name, boolean defaultValue, String doc) {
        return new WorkloadParameter(name, Type.BOOLEAN, defaultValue, "", doc, 0, 0);
    }

    /** Declares a real-number parameter above {@code min} and at most {@code max} (a share of a problem). */
    public static WorkloadParameter decimalAbove(String name, double defaultValue, String unit, String doc, long min,
                                                 long max) {
        WorkloadParameter p = new WorkloadParameter(name, Type.DECIMAL_ABOVE_MIN, defaultValue, unit, doc, min, max);
        p.coerce(defaultValue);
        return p;
    }

    /** Declares a real-number parameter in {@code [min, max]} (a ratio, a probability, a collision rate). */
    public static WorkloadParameter decimal(String name, double defaultValue, String unit, String doc, long min,
                                            long max) {
        WorkloadParameter p = new WorkloadParameter(name, Type.DECIMAL, defaultValue, unit, doc, min, max);
        p.coerce(defaultValue);
        return p;
    }

    /** Declares a parameter that takes one of {@code choices} (an application, a placement). */
    public static WorkloadParameter choice(String name, String defaultValue, String doc, List<String> choices) {
        if (choices.isEmpty()) {
            throw new IllegalArgumentException("workload parameter " + name + " needs at least one choice");
        }
        WorkloadParameter p = new WorkloadParameter(name, Type.CHOICE, defaultValue, "", doc, 0, 0, choices);
        p.coerce(defaultValue);
        return p;
    }

    /** Declares a parameter that names a file the workload reads; by default none (empty). */
    public static WorkloadParameter file(String name, String doc) {
        return new WorkloadParameter(name, Type.FILE, "", "", doc, 0, 0);
    }

    /** Declares a parameter that takes one of {@code choices}; the first is the default. */
    public static WorkloadParameter choice(String name, String doc, String... choices) {
        WorkloadParameter p = new WorkloadParameter(name, Type.CHOICE, choices[0], "", doc, 0, 0, List.of(choices));
        p.coerce(choices[0]);
        return p;
    }

    /**
     * Converts a value as written (a YAML number, boolean or string; a {@code --set} string) to
     * this parameter's stored form, checking its range. An integer in bytes may carry a size unit
     * ({@code "4 KiB"}), with the units and factors profiles use.
     *
     * @return a {@link Long}, {@link Boolean}, {@link Double} or {@link String}, as the type stores it
     * @throws IllegalArgumentException with a one-line problem that says what would be valid
     */
    public Object coerce(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("needs a value; " + expected());
        }
        return switch (type) {
            case BOOLEAN -> {
                if (value instanceof Boolean b) {
                    yield b;
                }
                String s = String.valueOf(value).strip();
                if (s.equals("true") || s.equals("false")) {
                    yield Boolean.valueOf(s);
                }
                throw new IllegalArgumentException("'" + value + "' is not a boolean; " + expected());
            }
            case DECIMAL_ABOVE_MIN -> {
                double v;
                try {
                    v = value instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(value).strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + value + "' is not a number; " + expected());
                }
                if (!(v > min && v <= max)) {
                    throw new IllegalArgumentException(value + " is out of range; " + expected());
                }
                yield v;
            }
            case FILE -> String.valueOf(value).strip();
            case CHOICE -> {
                String v = String.valueOf(value).strip();
                if (!choices.contains(v)) {
                    throw new IllegalArgumentException("'" + value + "' is not valid; " + expected());
                }
                yield v;
            }
            case INTEGER -> {
                BigInteger v = integerValue(value);
                if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
                    throw new IllegalArgumentException(value + " is out of range; " + expected());
                }
                yield v.longValueExact();
            }
            case DECIMAL -> {
                double d;
                if (value instanceof Number n) {
                    d = n.doubleValue();
                } else {
                    try {
                        d = Double.parseDouble(String.valueOf(value).strip());
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("'" + value + "' is not a number; " + expected());
                    }
                }
                if (!(d >= min && d <= max)) {
                    throw new IllegalArgumentException(value + " is out of range; " + expected());
                }
                yield d;
            }
        };
    }

    private BigInteger integerValue(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return BigInteger.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger b) {
            return b;
        }
        if (value instanceof String s) {
            Matcher m = NUMBER_AND_UNIT.matcher(s);
            if (m.matches()) {
                BigInteger n = new BigInteger(m.group(1).replace("_", ""));
                String u = m.group(2);
                if (u.isEmpty() || u.equals(unit)) {
                    return n;
                }
                // Sizes may be written with the profile units (4 KiB, 1 MiB), so grids read like papers.
                BigDecimal factor = unit.equals("B") ? Dimension.SIZE.factor(u) : null;
                if (factor != null) {
                    return factor.multiply(new BigDecimal(n)).toBigIntegerExact();
                }
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a whole number; " + expected());
    }

    /** What a valid value looks like, for error messages. */
    public String expected() {
        return switch (type) {
            case BOOLEAN -> "valid values: true, false";
            case DECIMAL_ABOVE_MIN -> "a number" + (unit.isEmpty() ? "" : " of " + unit) + " above " + min + " and at most "
                    + max;
            case CHOICE -> "valid values: " + String.join(", ", choices);
            case INTEGER -> "a whole number" + (unit.isEmpty() ? "" : " of " + unit)
                    + (unit.equals("B") ? " (or with a unit: KiB, MiB, GiB, KB, MB, GB)" : "")
                    + " from " + min + " to " + max;
            case DECIMAL -> "a number" + (unit.isEmpty() ? "" : " of " + unit) + " from " + min + " to " + max;
            case FILE -> "a file path";
        };
    }

    /** The type as written in {@code info} and resolved specs. */
    public String typeName() {
        return type == Type.DECIMAL_ABOVE_MIN ? "decimal" : type.name().toLowerCase(java.util.Locale.ROOT);
    }
}
