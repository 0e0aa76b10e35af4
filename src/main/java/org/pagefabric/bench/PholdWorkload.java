package org.pagefabric.bench;

import java.util.SplittableRandom;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;

/**
 * The PHOLD hold model shared by the kernel and the reference engine, so that both do exactly
 * the same work per event: a logical process (LP) receives an event, draws an exponentially
 * distributed delay and a uniformly random destination LP from its own stream, and sends one
 * event there. The number of events in flight stays constant.
 *
 * <p>Delays come from a 1024-quantile table of the exponential distribution (mean 1 us): the
 * handler stays trivial, so the benchmark measures the event set and loop, not {@code log()}.
 */
public final class PholdWorkload {
    /** Mean of the delay distribution. */
    public static final long MEAN_DELAY_PS = Time.US;
    private static final long[] DELAYS = new long[1024];

    static {
        for (int i = 0; i < DELAYS.length; i++) {
            DELAYS[i] = 1 + (long) (-Math.log(1 - (i + 0.5) / DELAYS.length) * MEAN_DELAY_PS);
        }
    }

    private final SplittableRandom[] streams;

    /** A workload of {@code lps} logical processes seeded from {@code seed}. */
    public PholdWorkload(int lps, long seed) {
        streams = new SplittableRandom[lps];
        for (int i = 0; i < lps; i++) {
            streams[i] = new SplittableRandom(RandomStream.deriveSeed(seed, "lp" + i));
        }
    }

    /** Number of logical processes. */
    public int lps() {
        return streams.length;
    }

    /** The number of LPs used for a given number of events in flight. */
    public static int lpsFor(int inFlight) {
        return Math.min(inFlight, 1024);
    }

    /**
     * Draws the next (delay, destination) of LP {@code lp}, packed as {@code delay << 20 | dest}
     * so that nothing is allocated.
     */
    public long next(int lp) {
        long r = streams[lp].nextLong();
        long delay = DELAYS[(int) (r >>> 54)];
        // Lemire's multiply-shift instead of %: a 64-bit division costs more than the rest.
        int dest = (int) (((r & 0xFFFFFFFFL) * streams.length) >>> 32);
        return (delay << 20) | dest;
    }

    /** Delay part of a packed draw. */
    public static long delay(long packed) {
        return packed >>> 20;
    }

    /** Destination part of a packed draw. */
    public static int dest(long packed) {
        return (int) (packed & 0xFFFFF);
    }
}
