package org.pagefabric.workload;

import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A microbenchmark or application kernel that runs on a {@link Job} at one message size. It
 * starts its ranks' processes; the runner runs the simulation and collects the results.
 */
public interface Workload {
    /** The command-line name. */
    String name();

    /** One line saying what is measured. */
    String description();

    /** Ranks the workload needs. */
    int ranks();

    /** Segment bytes each rank needs for messages of {@code size} bytes. */
    long segmentBytes(long size);

    /** The metric the workload is judged by, e.g. {@code latency_us}. */
    String mainMetric();

    /** Whether a larger main metric is better (bandwidth) or worse (latency). */
    boolean higherIsBetter();

    /**
     * Starts the workload's processes on {@code job}.
     *
     * @param size       message size in bytes
     * @param iterations timed iterations (after warm-up)
     * @param latencies  where each iteration's latency goes (picoseconds)
     * @return what the runner reads once the simulation ends
     */
    Run start(Job job, long size, int iterations, LatencyHistogram latencies);

    /** What a started workload reports once the simulation has ended. */
    interface Run {
        /** Bytes moved per second over the timed part, or 0 if not measured. */
        double bytesPerSecond();

        /** Whether every timed operation succeeded and the data arrived intact. */
        boolean verified();
    }
}
