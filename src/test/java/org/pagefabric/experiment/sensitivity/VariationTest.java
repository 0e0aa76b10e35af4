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
        Parameter syscall = p("os.syscall"); // assumed 150 ns: 75 to 300 ns
        assertEquals(75_000, new Variation(Map.of(syscall, 0.0)).apply(DEFAULT).time(syscall));
        assertEquals(300_000, new Variation(Map.of(syscall, 1.0)).apply(DEFAULT).time(syscall));
        assertEquals(150_000, new Variation(Map.of(syscall, 0.5)).apply(DEFAULT).time(syscall));
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
        Parameter minor = p("os.page_fault.minor"); // measured on a host: an input, no range
        assertEquals(DEFAULT.time(minor), new Variation(Map.of(minor, 1.0)).apply(DEFAULT).time(minor));
    }

    @Test
    void positionsOutsideTheUnitIntervalAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Variation(Map.of(p("os.syscall"), 1.5)));
        assertTrue(new Variation(Map.of()).apply(DEFAULT) == DEFAULT, "nothing to vary, the same profile");
    }
}
