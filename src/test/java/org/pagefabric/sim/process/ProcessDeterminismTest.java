package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;

/**
 * Eight ranks ping-pong in pairs through a wire with random latency, sleep random amounts from
 * their own streams, then meet at a barrier run by a hardware counter. The trace of
 * (time, process, step) must be the same run after run and for both implementations.
 */
class ProcessDeterminismTest {
    private static final int RANKS = 8;
    private static final int ROUNDS = 25;

    /** A hardware wire: delivers a value to a rank's receive completion after a random latency. */
    private static final class Wire extends Component {
        private final Completion[] rx;
        private final List<String> trace;

        Wire(Simulator sim, Completion[] rx, List<String> trace) {
            super(sim, "wire");
            this.rx = rx;
            this.trace = trace;
        }

        void send(int dst, long value) {
            schedule(100 + random().nextLong(400), 0, ((long) dst << 32) | value);
        }

        @Override
        public void handle(int type, long arg) {
            int dst = (int) (arg >>> 32);
            trace.add(sim.now() + " wire deliver rank" + dst + " " + (int) arg);
            rx[dst].complete((int) arg);
        }
    }

    /** A hardware barrier: counts arrivals one cycle after each, and completes when all are in. */
    private static final class Barrier extends Component {
        final Completion release = new Completion("barrier.release");
        private int arrived;

        Barrier(Simulator sim) {
            super(sim, "barrier");
        }

        void arrive() {
            schedule(1, 0, 0);
        }

        @Override
        public void handle(int type, long arg) {
            if (++arrived == RANKS) {
                release.complete(sim.now());
            }
        }
    }

    static List<String> run(ProcessImpl impl, long seed) {
        Simulator sim = new Simulator(seed);
        List<String> trace = new ArrayList<>();
        Completion[] rx = new Completion[RANKS];
        for (int i = 0; i < RANKS; i++) {
            rx[i] = new Completion("rank" + i + ".rx");
        }
        Wire wire = new Wire(sim, rx, trace);
        Barrier barrier = new Barrier(sim);
        for (int i = 0; i < RANKS; i++) {
            int me = i;
            int peer = i ^ 1;
            ProcessBody body = ctx -> {
                for (int r = 0; r < ROUNDS; r++) {
                    if (me % 2 == 0) {
                        ctx.sleep(ctx.random().nextLong(300));
                        trace.add(ctx.now() + " " + ctx.name() + " ping " + r);
                        wire.send(peer, r);
                        long v = ctx.await(rx[me]);
                        rx[me].reset();
                        trace.add(ctx.now() + " " + ctx.name() + " got " + v);
                    } else {
                        long v = ctx.await(rx[me]);
                        rx[me].reset();
                        trace.add(ctx.now() + " " + ctx.name() + " got " + v);
                        ctx.sleep(ctx.random().nextLong(50));
                        ctx.yieldNow();
                        wire.send(peer, v + 1000);
                        trace.add(ctx.now() + " " + ctx.name() + " pong " + v);
                    }
                }
                barrier.arrive();
                long at = ctx.await(barrier.release);
                trace.add(ctx.now() + " " + ctx.name() + " released " + at);
            };
            new SimProcess(sim, null, "rank" + i, impl, body).start(i % 3);
        }
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        trace.add("events " + sim.eventsExecuted() + " end " + sim.now());
        SimProcess.closeAll(sim);
        return trace;
    }

    @Test
    void theTraceIsIdenticalAcrossRunsAndImplementations() {
        List<String> first = run(ProcessImpl.CONTINUATION, 42);
        List<String> second = run(ProcessImpl.CONTINUATION, 42);
        List<String> threads = run(ProcessImpl.THREAD, 42);
        List<String> threadsAgain = run(ProcessImpl.THREAD, 42);
        // 4 pairs x rounds x (ping, got, got, pong, two deliveries) + 8 releases + summary.
        assertEquals(4 * ROUNDS * 6 + RANKS + 1, first.size());
        assertEquals(first, second);
        assertEquals(first, threads);
        assertEquals(first, threadsAgain);
        assertTrue(first.stream().filter(s -> s.contains("released")).distinct().count() == RANKS);
    }

    @Test
    void theSeedMattersSoTheComparisonIsNotVacuous() {
        assertNotEquals(run(ProcessImpl.CONTINUATION, 42), run(ProcessImpl.CONTINUATION, 43));
    }
}
