package org.pagefabric.experiment.sensitivity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** Moving parameters within their plausible ranges: the ends exactly, log scale between, inputs untouched. */
class VariationTest {
    private static final Profile DEFAULT = ProfileRegistry.load("default");

    private static Parameter p(String name) {
        return ParameterRegistry.find(name).orElseThrow();
    }

    @Test
    void theEndsAreTheRangesEndsAndTheMiddleIsTheGeometricMean() {
        Parameter pin = p("os.pin.base"); // assumed 1 us, no stated range: 0.5 to 2 us
        assertEquals(500_000, new Variation(Map.of(pin, 0.0)).apply(DEFAULT).time(pin));
        assertEquals(2_000_000, new Variation(Map.of(pin, 1.0)).apply(DEFAULT).time(pin));
        assertEquals(1_000_000, new Variation(Map.of(pin, 0.5)).apply(DEFAULT).time(pin));
        Parameter syscall = p("os.syscall"); // assumed 150 ns with a stated range of 100 to 300 ns
        assertEquals(100_000, new Variation(Map.of(syscall, 0.0)).apply(DEFAULT).time(syscall));
        assertEquals(300_000, new Variation(Map.of(syscall, 1.0)).apply(DEFAULT).time(syscall));
    }

    @Test
    void aVariedValueSaysWhereItComesFromAndTheRestStaysNominal() {
        Parameter syscall = p("os.syscall");
        Parameter latency = p("link.latency");
        Profile varied = new Variation(Map.of(syscall, 1.0)).apply(DEFAULT);
        assertEquals("override: sensitivity", varied.source(syscall));
        assertEquals(DEFAULT.time(latency), varied.time(latency));
    }

    @Test
    void anInputKeepsItsValueWhateverThePosition() {
        Profile part = ProfileRegistry.load("part-forth");
        Parameter hop = p("switch.hop_latency"); // 000 §V states it: an input, no range
        assertEquals(part.time(hop), new Variation(Map.of(hop, 1.0)).apply(part).time(hop));
        Parameter cores = p("cpu.cores"); // a count without a stated range describes the machine
        assertEquals(DEFAULT.count(cores), new Variation(Map.of(cores, 0.0)).apply(DEFAULT).count(cores));
    }

    @Test
    void positionsOutsideTheUnitIntervalAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Variation(Map.of(p("os.syscall"), 1.5)));
        assertTrue(new Variation(Map.of()).apply(DEFAULT) == DEFAULT, "nothing to vary, the same profile");
    }
}
