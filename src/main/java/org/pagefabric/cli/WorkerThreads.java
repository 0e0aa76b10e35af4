package org.pagefabric.cli;

import picocli.CommandLine.Option;

/** The {@code --threads} option of the commands that run a grid's points in parallel. */
final class WorkerThreads {
    /** The fewest threads {@link #max()} allows, whatever the machine: any count up to it is valid everywhere. */
    static final int FLOOR = 1024;
    /** Threads per processor {@link #max()} allows on a machine with more than {@code FLOOR / 64} processors. */
    static final int PER_PROCESSOR = 64;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads, 1 to the larger of 1024 and 64 per"
            + " processor; results do not depend on it (default: the number of processors).")
    Integer threads;

    /**
     * The threads asked for, or one per processor.
     *
     * @throws IllegalArgumentException naming the option, the value and the valid ones, if out of range
     */
    int count() {
        return count(threads);
    }

    /**
     * {@code threads}, or one per processor when {@code null}.
     *
     * @throws IllegalArgumentException naming the option, the value and the valid ones, if out of range
     */
    static int count(Integer threads) {
        if (threads == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        // each worker is a platform thread running points flat out: past a few per processor they
        // only share the processors, and tens of thousands exhaust the process's threads and memory
        if (threads < 1 || threads > max()) {
            throw new IllegalArgumentException("--threads " + threads + ": out of range; valid: 1 to " + max()
                    + " (the larger of " + FLOOR + " and " + PER_PROCESSOR + " per processor)");
        }
        return threads;
    }

    /** The most worker threads a command takes on this machine. */
    static int max() {
        return Math.max(FLOOR, PER_PROCESSOR * Runtime.getRuntime().availableProcessors());
    }
}
