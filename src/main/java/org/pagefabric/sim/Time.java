package org.pagefabric.sim;

/**
 * Virtual time units. Simulated time is a {@code long} count of picoseconds: integer so that
 * runs are bit-for-bit reproducible, picoseconds so that a 400 Gb/s link's per-byte time
 * (20 ps) is still exact, and 64 bits so that 106 days of simulated time fit.
 */
public final class Time {
    /** One picosecond, the unit of virtual time. */
    public static final long PS = 1L;
    /** One nanosecond in picoseconds. */
    public static final long NS = 1_000L;
    /** One microsecond in picoseconds. */
    public static final long US = 1_000_000L;
    /** One millisecond in picoseconds. */
    public static final long MS = 1_000_000_000L;
    /** One second in picoseconds. */
    public static final long S = 1_000_000_000_000L;
    /** A time later than any event: used as "run to completion". */
    public static final long NEVER = Long.MAX_VALUE;

    private Time() {
    }

    /** Converts picoseconds to (fractional) microseconds, for reporting only. */
    public static double toMicros(long ps) {
        return ps / (double) US;
    }

    /** Converts picoseconds to (fractional) seconds, for reporting only. */
    public static double toSeconds(long ps) {
        return ps / (double) S;
    }

    /** Converts (fractional) nanoseconds from a profile to picoseconds, rounding to nearest. */
    public static long fromNanos(double ns) {
        return Math.round(ns * NS);
    }

    /** Human-readable rendering with an adaptive unit, e.g. {@code 4.250 us}. */
    public static String format(long ps) {
        long a = Math.abs(ps);
        if (a >= S) {
            return String.format(java.util.Locale.ROOT, "%.3f s", ps / (double) S);
        } else if (a >= MS) {
            return String.format(java.util.Locale.ROOT, "%.3f ms", ps / (double) MS);
        } else if (a >= US) {
            return String.format(java.util.Locale.ROOT, "%.3f us", ps / (double) US);
        } else if (a >= NS) {
            return String.format(java.util.Locale.ROOT, "%.3f ns", ps / (double) NS);
        }
        return ps + " ps";
    }
}
