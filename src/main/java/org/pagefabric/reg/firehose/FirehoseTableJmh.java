package org.pagefabric.reg.firehose;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Nanoseconds per firehose-table hit and per move against the table's size F, from 1 Ki to
 * 1 Mi firehoses (F = 14 628 per remote node on 004's 8 nodes): both should stay flat, as the
 * table is a primitive open-addressing hash plus intrusive FIFO links. Hits walk the buckets
 * with a large odd stride, so successive lookups touch unrelated slots (no cache-friendly
 * sequential walk). With {@code -prof gc}, {@code gc.alloc.rate.norm} is 0. It lives beside the
 * table it measures, which nothing outside this package reaches.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class FirehoseTableJmh {
    /** Firehoses to the remote node. */
    @Param({"1024", "16384", "262144", "1048576"})
    public int firehoses;

    private FirehoseTableDriver driver;
    private int i;

    /** A full table, every firehose idle. */
    @Setup
    public void setUp() {
        driver = new FirehoseTableDriver(firehoses);
    }

    /** Find, acquire and release a mapped firehose. */
    @Benchmark
    public int hit() {
        i += 0x9E3779B1;
        return driver.hit(i);
    }

    /** Move the least recently used firehose to a new bucket. */
    @Benchmark
    public int move() {
        return driver.move();
    }
}
