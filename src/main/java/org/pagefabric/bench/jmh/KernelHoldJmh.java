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
import org.openjdk.jmh.annotations.Warmup;
import org.pagefabric.bench.KernelPhold;
import org.pagefabric.bench.ReferencePhold;

/**
 * PHOLD events per operation on the kernel and on the {@code PriorityQueue} reference engine.
 * An invocation runs {@value #BATCH} events; with {@code -prof gc}, {@code gc.alloc.rate.norm}
 * is the allocation per event (0 for the kernel in steady state, one event object for the
 * reference).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC", "-XX:+UseTransparentHugePages"})
public class KernelHoldJmh {
    /** Events per invocation. */
    static final int BATCH = 10_000;

    /** Events in flight. */
    @Param({"4096", "65536", "1048576"})
    public int inFlight;

    private KernelPhold kernel;
    private ReferencePhold reference;

    /** Builds both engines and lets them reach their steady shape. */
    @Setup(Level.Trial)
    public void setUp() {
        kernel = new KernelPhold(inFlight, 1);
        reference = new ReferencePhold(inFlight, 1);
        long warm = 2L * inFlight;
        kernel.run(warm);
        reference.run(warm);
    }

    /** The kernel. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void kernel() {
        kernel.run(BATCH);
    }

    /** The reference engine. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void reference() {
        reference.run(BATCH);
    }
}
