package org.pagefabric.workload.synthetic;

import java.util.Locale;
import org.pagefabric.sim.RandomStream;

/** Whom each rank's operations address. */
enum PeerPattern {
    /** Rank {@code i} addresses rank {@code i + 1}, the last rank the first: a halo exchange in one dimension. */
    RING,
    /** Each operation addresses another rank drawn uniformly: a hashtable or graph code. */
    RANDOM,
    /** Every rank but 0 addresses rank 0, which only serves: a master-worker or a reduction to a root. */
    ALL_TO_ONE;

    /** The names the {@code peers} parameter takes, in this order. */
    static final String[] NAMES = {"ring", "random", "all-to-one"};

    /** The pattern written as {@code name} (one of {@link #NAMES}). */
    static PeerPattern named(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Whether {@code rank} issues operations at all. */
    boolean initiates(int rank) {
        return this != ALL_TO_ONE || rank != 0;
    }

    /** The peer of one operation of {@code rank} among {@code ranks}; {@link #RANDOM} draws from {@code random}. */
    int peer(int rank, int ranks, RandomStream random) {
        return switch (this) {
            case RING -> (rank + 1) % ranks;
            case RANDOM -> {
                int other = random.nextInt(ranks - 1);
                yield other >= rank ? other + 1 : other;
            }
            case ALL_TO_ONE -> 0;
        };
    }
}
