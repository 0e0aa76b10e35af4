package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RollingHashTracerTest {
    static final class Dev extends Component {
        Dev(Simulator sim, String name) {
            super(sim, name);
        }

        @Override
        public void handle(int type, long arg) {
        }
    }

    static final class Plain implements EventHandler {
        @Override
        public void handle(int type, long arg) {
        }
    }

    record Ev(long time, int band, EventHandler handler, int type) {
    }

    private static long hashOf(List<Ev> events) {
        RollingHashTracer t = new RollingHashTracer();
        for (Ev e : events) {
            t.onEvent(e.time(), e.band(), e.handler(), e.type());
        }
        return t.hash();
    }

    @Test
    void startsAtTheInitialValue() {
        RollingHashTracer t = new RollingHashTracer();
        assertEquals(RollingHashTracer.INITIAL, t.hash());
        assertEquals(0, t.events());
    }

    @Test
    void followsTheDocumentedAlgorithm() {
        Dev nic = new Dev(new Simulator(1), "node1_nic");
        RollingHashTracer t = new RollingHashTracer();
        t.onEvent(1_000, Band.KERNEL, nic, 7);
        t.onEvent(2_000, Band.TIMEOUT, nic, -1);
        long id = RollingHashTracer.fnv1a64("node1_nic");
        long h = RollingHashTracer.INITIAL;
        h = RandomStream.mix64(RandomStream.mix64(RandomStream.mix64(h ^ 1_000) ^ id) ^ ((2L << 32) | 7));
        h = RandomStream.mix64(RandomStream.mix64(RandomStream.mix64(h ^ 2_000) ^ id) ^ ((4L << 32) | 0xFFFF_FFFFL));
        assertEquals(h, t.hash());
        assertEquals(2, t.events());
        // Published FNV-1a 64 test vectors.
        assertEquals(0xcbf29ce484222325L, RollingHashTracer.fnv1a64(""));
        assertEquals(0xaf63dc4c8601ec8cL, RollingHashTracer.fnv1a64("a"));
        assertEquals(0x85944171f73967e8L, RollingHashTracer.fnv1a64("foobar"));
    }

    @Test
    void componentIdentityIsItsNameAcrossSimulators() {
        Dev a = new Dev(new Simulator(1), "dev");
        Dev b = new Dev(new Simulator(2), "dev");
        Dev c = new Dev(new Simulator(1), "dev2");
        RollingHashTracer t = new RollingHashTracer();
        assertEquals(t.identity(a), t.identity(b));
        assertEquals(RollingHashTracer.fnv1a64("dev"), t.identity(a));
        assertNotEquals(t.identity(a), t.identity(c));
        assertEquals(hashOf(List.of(new Ev(5, 1, a, 0))), hashOf(List.of(new Ev(5, 1, b, 0))));
    }

    @Test
    void otherHandlersAreIdentifiedByClassName() {
        RollingHashTracer t = new RollingHashTracer();
        assertEquals(RollingHashTracer.fnv1a64(Plain.class.getName()), t.identity(new Plain()));
        assertEquals(t.identity(new Plain()), t.identity(new Plain()));
        // Lambdas: the per-JVM-run suffix of the hidden class name is dropped.
        EventHandler lambda = (type, arg) -> { };
        String raw = lambda.getClass().getName();
        String stable = RollingHashTracer.stableClassName(lambda.getClass());
        assertEquals(RollingHashTracerTest.class.getName() + "$$Lambda", stable, raw);
        assertEquals(RollingHashTracer.fnv1a64(stable), t.identity(lambda));
    }

    @Test
    void everyFieldAndTheOrderChangeTheHash() {
        Simulator sim = new Simulator(1);
        Dev x = new Dev(sim, "x");
        Dev y = new Dev(sim, "y");
        List<Ev> base = List.of(new Ev(10, 1, x, 1), new Ev(20, 2, y, 2));
        Set<Long> hashes = new HashSet<>();
        hashes.add(hashOf(base));
        hashes.add(hashOf(List.of(new Ev(11, 1, x, 1), new Ev(20, 2, y, 2)))); // time
        hashes.add(hashOf(List.of(new Ev(10, 2, x, 1), new Ev(20, 2, y, 2)))); // band
        hashes.add(hashOf(List.of(new Ev(10, 1, y, 1), new Ev(20, 2, y, 2)))); // receiver
        hashes.add(hashOf(List.of(new Ev(10, 1, x, 3), new Ev(20, 2, y, 2)))); // type
        hashes.add(hashOf(List.of(new Ev(20, 2, y, 2), new Ev(10, 1, x, 1)))); // order
        hashes.add(hashOf(List.of(new Ev(10, 1, x, 1)))); // one event fewer
        hashes.add(hashOf(List.of(new Ev(10, 1, x, 1), new Ev(20, 2, y, 2), new Ev(20, 2, y, 2)))); // one more
        assertEquals(8, hashes.size());
        assertEquals(hashOf(base), hashOf(List.of(new Ev(10, 1, x, 1), new Ev(20, 2, y, 2))));
    }

    @Test
    void seesEventsThroughTheSimulator() {
        Simulator sim = new Simulator(1);
        Dev d = new Dev(sim, "d");
        RollingHashTracer t = new RollingHashTracer();
        sim.setTracer(t);
        sim.schedule(10, Band.KERNEL, d, 3, 0);
        sim.schedule(10, Band.HARDWARE, (type, arg) -> sim.schedule(0, Band.CONTROL, d, 4, 0), 1, 0);
        sim.run();
        assertEquals(3, t.events());
        EventHandler anyLambda = (type, arg) -> { };
        assertEquals(hashOf(List.of(new Ev(10, Band.HARDWARE, anyLambda, 1), new Ev(10, Band.CONTROL, d, 4),
                new Ev(10, Band.KERNEL, d, 3))), t.hash());
    }
}
