package org.pagefabric.examples.mrmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * A policy from outside PageFabric's packages is picked up from the class path with its own
 * parameter, runs any workload its capabilities allow, and costs what it declares.
 */
class ExamplePolicyTest {
    @Test
    void theRegistryFindsItAndTheProfilesKnowItsParameter() {
        assertTrue(PolicyRegistry.standard().contains(MrMapPolicy.NAME));
        assertTrue(ParameterRegistry.find("example.mr_map.lookup").isPresent());
        assertEquals(60_000, ProfileRegistry.load("default").time(MrMapParameters.LOOKUP));
    }

    @Test
    void everyPutPaysTwoLookupsOverPinAll() {
        var profile = ProfileRegistry.load("default");
        var latency = WorkloadRegistry.standard().byName("latency");
        Map<String, Object> ours = PointRun.run(profile, MrMapPolicy.NAME, latency, 4096, 20, 1);
        Map<String, Object> base = PointRun.run(profile, PolicyRegistry.DEFAULT, latency, 4096, 20, 1);
        assertEquals(true, ours.get("verified"));
        double extra = (Double) ours.get("latency_us") - (Double) base.get("latency_us");
        assertEquals(0.12, extra, 0.0015, "a local and a remote key lookup of 60 ns each");
        assertEquals(100.0, ours.get("hit_rate_pct"));
    }
}
