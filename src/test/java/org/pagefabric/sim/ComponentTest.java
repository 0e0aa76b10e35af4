package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/** Component naming, registration and the helpers components use. */
class ComponentTest {
    private final Simulator sim = new Simulator(3);

    static final class Part extends Component {
        final List<String> seen = new ArrayList<>();

        Part(Simulator sim, String name) {
            super(sim, name);
        }

        Part(Simulator sim, Component parent, String name) {
            super(sim, parent, name);
        }

        @Override
        public void handle(int type, long arg) {
            seen.add(type + ":" + arg + "@" + sim.now());
        }

        long later(long delay, int type, long arg) {
            return schedule(delay, type, arg);
        }

        long laterIn(long delay, int band, int type, long arg) {
            return schedule(delay, band, type, arg);
        }

        Counter drops() {
            return counter("drops", "packets", "dropped packets");
        }

        LatencyHistogram rtt() {
            return latency("rtt", "round trips");
        }
    }

    @Test
    void namesAreHierarchicalAndRegistered() {
        Part node = new Part(sim, "node12");
        Part nic = new Part(sim, node, "nic");
        Part qp = new Part(sim, nic, "qp3");
        assertEquals("node12", node.name());
        assertEquals("node12.nic.qp3", qp.name());
        assertEquals("node12.nic.qp3", qp.toString());
        assertSame(qp, sim.component("node12.nic.qp3"));
        assertSame(nic, sim.component("node12.nic"));
        assertNull(sim.component("qp3"));
        assertNull(sim.component("node12.nic.qp4"));
        assertEquals(List.of(node, nic, qp), sim.components());
        assertSame(sim, qp.simulator());
        assertThrows(UnsupportedOperationException.class, () -> sim.components().clear());
    }

    @Test
    void duplicateNamesAreRefused() {
        Part node = new Part(sim, "node1");
        Part nic = new Part(sim, node, "nic");
        assertThrows(IllegalArgumentException.class, () -> new Part(sim, "node1"));
        assertThrows(IllegalArgumentException.class, () -> new Part(sim, node, "nic"));
        // The originals stay registered; the same local name under another parent is fine.
        assertSame(node, sim.component("node1"));
        assertSame(nic, sim.component("node1.nic"));
        Part other = new Part(sim, new Part(sim, "node2"), "nic");
        assertEquals("node2.nic", other.name());
        assertEquals(4, sim.components().size());
        // Names are per simulator.
        assertEquals("node1", new Part(new Simulator(3), "node1").name());
    }

    @ParameterizedTest(name = "''{0}'' refused")
    @ValueSource(strings = {"", "a.b", "node 1", ".", "nic.", "x/y", "nœud", "tab\t", "q:1"})
    void badNamesAreRefused(String bad) {
        assertThrows(IllegalArgumentException.class, () -> new Part(sim, bad));
        Part parent = new Part(sim, "parent");
        assertThrows(IllegalArgumentException.class, () -> new Part(sim, parent, bad));
        assertEquals(List.of(parent), sim.components(), "a refused component is not registered");
    }

    @ParameterizedTest(name = "''{0}'' accepted")
    @ValueSource(strings = {"a", "node12", "qp[3]", "rx_queue-0", "A9", "[]", "-"})
    void goodNamesAreAccepted(String good) {
        assertEquals(good, new Part(sim, good).name());
    }

    @Test
    void scheduleHelpersTargetTheComponentInTheRightBand() {
        Part p = new Part(sim, "dev");
        List<String> traced = new ArrayList<>();
        sim.setTracer((time, band, handler, type) -> traced.add(Band.name(band) + "/" + handler + "/" + type));
        p.later(10, 1, 11);
        p.laterIn(10, Band.CONTROL, 2, 22);
        sim.run();
        assertEquals(List.of("2:22@10", "1:11@10"), p.seen);
        assertEquals(List.of("control/dev/2", "hardware/dev/1"), traced);
    }

    @Test
    void statisticsAreNamedAfterTheComponent() {
        Part nic = new Part(sim, new Part(sim, "node4"), "nic");
        Counter drops = nic.drops();
        drops.increment();
        assertSame(drops, nic.drops(), "declaring again returns the same statistic");
        assertSame(drops, sim.statistics().get("node4.nic.drops"));
        assertEquals("node4.nic.rtt", nic.rtt().name());
        assertTrue(sim.statistics().all().contains(nic.rtt()));
    }
}
