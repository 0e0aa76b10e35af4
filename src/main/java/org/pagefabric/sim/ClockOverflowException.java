package org.pagefabric.sim;

/**
 * An event was scheduled past the end of the simulated clock: a signed 64-bit count of
 * picoseconds, about 107 days. It is the input that asks for too much (a size too large for a
 * link too slow), not a failing model, so the command line reports it as bad input.
 */
public final class ClockOverflowException extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    /** The simulated time the clock can reach, in days. */
    public static final double RANGE_DAYS = Long.MAX_VALUE / (double) Time.S / 86_400;

    /** @param now the simulated time, in picoseconds, when the event was scheduled */
    public ClockOverflowException(long now) {
        super(String.format(java.util.Locale.ROOT,
                "the run would last beyond the simulated clock's range of %.0f days (at %.0f s of simulated time, an"
                        + " event fell later): ask for less work, such as smaller sizes, or faster hardware",
                RANGE_DAYS, now / (double) Time.S));
    }
}
