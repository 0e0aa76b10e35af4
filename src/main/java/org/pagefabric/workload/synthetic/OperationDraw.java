package org.pagefabric.workload.synthetic;

import org.pagefabric.sim.RandomStream;

/**
 * The draws of one rank's operations, in a fixed order from the rank's own stream: the kind, the
 * peer, the buffer and whether the buffer is reallocated first. The same draws can be replayed
 * from a copy of the stream before the run, which is how receivers learn how many messages each
 * sender will send them.
 */
final class OperationDraw {
    static final int PUT = 0;
    static final int GET = 1;
    static final int SEND = 2;

    private final Application app;
    private final int rank;
    private final int buffers;
    private final RandomStream random;
    /** The last operation drawn: its kind, peer, buffer and whether it reallocates. */
    int kind;
    int peer;
    int buffer;
    boolean churn;

    /**
     * @param buffers how many buffers the rank holds
     * @param seed    the seed of the rank's operation stream
     */
    OperationDraw(Application app, int rank, int buffers, long seed) {
        this.app = app;
        this.rank = rank;
        this.buffers = buffers;
        this.random = new RandomStream(seed);
    }

    /** Draws operation {@code i} (operations are drawn in order, from 0). */
    void next(int i) {
        double u = random.nextDouble();
        kind = u < app.put() ? PUT : u < app.put() + app.get() ? GET : SEND;
        peer = app.peers().peer(rank, app.ranks(), random);
        // cyclic reuse: each buffer comes back after exactly reuse_distance others
        buffer = app.reuseDistance() > 0 ? i % buffers : random.nextInt(buffers);
        churn = random.nextBoolean(app.churn());
    }
}
