package org.pagefabric.examples.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * A workload from outside PageFabric's packages is found on the class path, declares itself in
 * its descriptor only, and runs and verifies under a policy like a bundled one.
 */
class ExampleWorkloadTest {
    private static final Workload ECHO = WorkloadRegistry.standard().byName(EchoWorkload.NAME);

    @Test
    void theRegistryFindsItWithWhatItsDescriptorDeclares() {
        assertSame(EchoWorkload.class, ECHO.getClass());
        Map<String, Object> v = ECHO.resolve(Map.of("size_B", "16 KiB"));
        assertEquals(Map.of("size_B", 16_384L, "iterations", 20L, "gap_us", 0L), v);
        assertEquals(2 * 16_384L, ECHO.segmentBytes(v));
        assertEquals(2 * 4096L, ECHO.segmentBytes(ECHO.resolve(Map.of("size_B", 8))));
        assertEquals(Set.of(Capability.PUT, Capability.GET), ECHO.requires(v));
        assertEquals("gap_us: -1 is out of range; a whole number of us from 0 to 1000000",
                assertThrows(IllegalArgumentException.class, () -> ECHO.resolve(Map.of("gap_us", -1))).getMessage());
    }

    @Test
    void aRoundTripIsAPutAndAGetAndComesBackIntact() {
        var profile = ProfileRegistry.load("default");
        Map<String, Object> echo = PointRun.run(profile, PolicyRegistry.DEFAULT, ECHO, 4096, 20, 1);
        Map<String, Object> put = PointRun.run(profile, PolicyRegistry.DEFAULT,
                WorkloadRegistry.standard().byName("latency"), 4096, 20, 1);
        assertEquals(true, echo.get("verified"));
        double roundTrip = (Double) echo.get("latency_us");
        double oneWay = (Double) put.get("latency_us");
        // a get waits for its reply as a put waits for its acknowledgement: each about one put's latency
        assertTrue(roundTrip > 1.5 * oneWay && roundTrip < 2.5 * oneWay, roundTrip + " vs " + oneWay);
    }

    @Test
    void computationBetweenRoundTripsDoesNotChangeARoundTrip() {
        var profile = ProfileRegistry.load("default");
        Map<String, Object> apart = PointRun.run(profile, PolicyRegistry.DEFAULT, ECHO,
                Map.of("size_B", 4096, "iterations", 20, "gap_us", 50), 1);
        Map<String, Object> backToBack = PointRun.run(profile, PolicyRegistry.DEFAULT, ECHO, 4096, 20, 1);
        assertEquals(true, apart.get("verified"));
        assertEquals(50L, apart.get("gap_us"));
        assertEquals((Double) backToBack.get("latency_us"), (Double) apart.get("latency_us"), 0.001);
        assertTrue((Double) apart.get("simulated_us") > (Double) backToBack.get("simulated_us") + 19 * 50,
                "twenty gaps of 50 us lengthen the run");
    }
}
