package org.pagefabric.sim;

/**
 * What a run cost: events executed, simulated time reached and wall-clock time spent in the
 * event loop.
 *
 * @param events         events dispatched
 * @param simulatedPs    virtual time at the end, picoseconds
 * @param wallNanos      wall-clock nanoseconds spent inside the event loop
 */
public record RunSummary(long events, long simulatedPs, long wallNanos) {
    /** Events per wall-clock second. */
    public double eventsPerSecond() {
        return wallNanos == 0 ? 0 : events * 1e9 / wallNanos;
    }

    /** Simulated seconds per wall-clock second. */
    public double simulatedSecondsPerWallSecond() {
        return wallNanos == 0 ? 0 : Time.toSeconds(simulatedPs) / (wallNanos / 1e9);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%,d events in %.3f s wall (%,.0f events/s), %s simulated (%.3g simulated s per wall s)",
                events, wallNanos / 1e9, eventsPerSecond(), Time.format(simulatedPs), simulatedSecondsPerWallSecond());
    }
}
