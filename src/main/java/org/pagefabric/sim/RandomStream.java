package org.pagefabric.sim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A component's own random numbers. Its seed depends only on the master seed and the
 * component's hierarchical name, so adding a component, or changing the order in which
 * components draw, never changes what another component sees.
 *
 * <p>Backed by {@link SplittableRandom}, whose algorithm (SplitMix64) is specified and has not
 * changed since Java 8: the same seed gives the same numbers on every JVM.
 */
public final class RandomStream {
    private final SplittableRandom random;
    private final long seed;

    /** A stream with an explicit seed. */
    public RandomStream(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /**
     * The seed of the stream named {@code name} under {@code masterSeed}: a 64-bit FNV-1a hash
     * of the name's UTF-8 bytes, combined with the master seed and finished with the SplitMix64
     * mixer so that similar names give unrelated streams.
     */
    public static long deriveSeed(long masterSeed, String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return mix64(mix64(masterSeed) ^ h);
    }

    /** The SplitMix64 finalizer: a bijective avalanche of 64 bits. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** The seed this stream started from. */
    public long seed() {
        return seed;
    }

    /** A uniformly distributed long. */
    public long nextLong() {
        return random.nextLong();
    }

    /** A uniformly distributed long in [0, bound). */
    public long nextLong(long bound) {
        return random.nextLong(bound);
    }

    /** A uniformly distributed int in [0, bound). */
    public int nextInt(int bound) {
        return random.nextInt(bound);
    }

    /** A uniformly distributed double in [0, 1). */
    public double nextDouble() {
        return random.nextDouble();
    }

    /** True with probability {@code p}. */
    public boolean nextBoolean(double p) {
        return p > 0 && (p >= 1 || random.nextDouble() < p);
    }

    /** An exponentially distributed delay with the given mean, in picoseconds, at least 0. */
    public long nextExponential(long meanPs) {
        return (long) (-Math.log1p(-random.nextDouble()) * meanPs);
    }
}
