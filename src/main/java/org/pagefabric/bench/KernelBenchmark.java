package org.pagefabric.bench;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * {@code pagefabric bench kernel}: PHOLD at several numbers of events in flight, on the kernel
 * and on the reference engine, alternating the two so that both see the same machine noise, and
 * reporting medians and their ratio.
 */
public final class KernelBenchmark {
    /** The result for one number of events in flight. */
    public record Result(int inFlight, long events, int repetitions, double eventsPerSecond,
                         double referenceEventsPerSecond) {
        /** Kernel rate over reference rate. */
        public double ratio() {
            return eventsPerSecond / referenceEventsPerSecond;
        }
    }

    private final long events;
    private final int repetitions;
    private final long seed;

    /**
     * @param events      timed events per repetition and engine
     * @param repetitions timed repetitions (the median is reported)
     * @param seed        workload seed
     */
    public KernelBenchmark(long events, int repetitions, long seed) {
        if (events <= 0 || repetitions <= 0) {
            throw new IllegalArgumentException("events and repetitions must be positive");
        }
        this.events = events;
        this.repetitions = repetitions;
        this.seed = seed;
    }

    /** Runs one configuration. */
    public Result run(int inFlight) {
        KernelPhold kernel = new KernelPhold(inFlight, seed);
        ReferencePhold reference = new ReferencePhold(inFlight, seed);
        // Warm-up: let the JIT compile both loops and both queues reach their steady shape.
        long warm = Math.max(2_000_000L, 2L * inFlight);
        kernel.run(warm);
        reference.run(warm);
        double[] ours = new double[repetitions];
        double[] ref = new double[repetitions];
        for (int r = 0; r < repetitions; r++) {
            ours[r] = rate(kernel::run);
            ref[r] = rate(reference::run);
        }
        return new Result(inFlight, events, repetitions, median(ours), median(ref));
    }

    private double rate(LongConsumer engine) {
        long t0 = System.nanoTime();
        engine.accept(events);
        long dt = System.nanoTime() - t0;
        return events * 1e9 / dt;
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
