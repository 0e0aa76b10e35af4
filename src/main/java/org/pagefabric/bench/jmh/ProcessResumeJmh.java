package org.pagefabric.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.pagefabric.bench.ProcessResumeBench;
import org.pagefabric.sim.process.ProcessImpl;

/**
 * One suspend+resume round trip of a process, kernel event(s) included, per operation. An
 * invocation runs {@value #BATCH} round trips so that the timer's cost vanishes; run with
 * {@code -prof gc} to see the allocation per round trip ({@code gc.alloc.rate.norm}).
 *
 * <p>The fork gets {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED} itself: a forked
 * JVM is started with {@code -cp}, where the jar manifest's {@code Add-Exports} does not apply.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED"})
public class ProcessResumeJmh {
    /** Round trips per invocation. */
    static final int BATCH = 1000;

    /** Process implementation. */
    @Param({"continuation", "thread"})
    public String impl;

    /** {@code sleep}: ctx.sleep(1); {@code await}: await a completion a device event completes. */
    @Param({"sleep", "await"})
    public String mode;

    /** Live processes (a divisor of {@value #BATCH}). */
    @Param({"1", "1000"})
    public int processes;

    private ProcessResumeBench.Setup setup;
    private long steps;

    /** Builds the looping processes and suspends them all once. */
    @Setup(Level.Trial)
    public void setUp() {
        if (BATCH % processes != 0) {
            throw new IllegalArgumentException("processes must divide " + BATCH);
        }
        setup = new ProcessResumeBench.Setup(ProcessImpl.parse(impl), processes,
                ProcessResumeBench.Mode.valueOf(mode.toUpperCase(java.util.Locale.ROOT)));
        steps = BATCH / processes;
    }

    /** Closes the processes, joining threads of the thread implementation. */
    @TearDown(Level.Trial)
    public void tearDown() {
        setup.close();
    }

    /** {@value #BATCH} round trips. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long resume() {
        setup.advance(steps);
        return setup.resumes();
    }
}
