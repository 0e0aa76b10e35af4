package org.pagefabric.cli;

import picocli.CommandLine.Option;

/** The {@code --threads} option of the commands that run a grid's points in parallel. */
final class WorkerThreads {
    @Option(names = "--threads", paramLabel = "T", description = "Worker threads; results do not depend on it.")
    Integer threads;

    /** The threads asked for, or one per processor. */
    int count() {
        return threads != null ? threads : Runtime.getRuntime().availableProcessors();
    }
}
