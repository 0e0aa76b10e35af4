package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Every policy meets the process limits as a real runtime meets them: a run that a limit stops
 * (RLIMIT_MEMLOCK, vm.max_map_count) ends with an unverified row whose reason names the failed
 * call, never with an exception; and a policy that pins memory is held to RLIMIT_MEMLOCK.
 */
class LimitsConformanceTest {
    private static final long SIZE = 64 * 1024;

    static Stream<String> policies() {
        return PolicyRegistry.standard().names().stream();
    }

    private static Map<String, Object> latency(String name, Map<String, String> overrides) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile p = Conformance.profileFor(d).withOverrides(overrides, "limits conformance");
        Workload w = WorkloadRegistry.standard().byName("latency");
        try {
            return PointRun.run(p, name, w, SIZE, 3, 1);
        } catch (PolicyRefusal r) {
            Assumptions.abort(name + " does not run the latency workload: " + r.getMessage());
            return null;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void aPolicyOverRlimitMemlockFailsWithAReason(String name) {
        Map<String, Object> free = latency(name, Map.of());
        Map<String, Object> limited = latency(name, Map.of("os.memlock_limit", "16KiB"));
        if (Boolean.FALSE.equals(limited.get("verified"))) {
            assertNotNull(limited.get(PointRun.REASON), name + ": an unverified row says why");
        }
        Object pinned = free.get("pinned_MiB");
        if (pinned instanceof Number mib && mib.doubleValue() * (1 << 20) > 2 * 16 * 1024) {
            assertEquals(false, limited.get("verified"), name + " pins " + mib + " MiB yet ran under a 16 KiB RLIMIT_MEMLOCK");
            assertTrue(String.valueOf(limited.get(PointRun.REASON)).contains("RLIMIT_MEMLOCK"),
                    name + ": " + limited.get(PointRun.REASON));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void aPolicyPastVmMaxMapCountFailsWithAReason(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile p = Conformance.profileFor(d).withOverrides(Map.of("nic.register.dontfork", "true",
                "nic.deregister.dofork", "false", "os.max_map_count", "16"), "limits conformance");
        Map<String, Object> row;
        try {
            row = PointRun.run(p, name, WorkloadRegistry.standard().byName("fh-put-latency"), Map.of("size_B", 64L,
                    "iterations", 100, "warm_up", false, "working_set_MiB", 4, "source_area_MiB", 4), 1);
        } catch (PolicyRefusal r) {
            Assumptions.abort(name + " does not run fh-put-latency: " + r.getMessage());
            return;
        }
        if (Boolean.FALSE.equals(row.get("verified"))) {
            assertNotNull(row.get(PointRun.REASON), name + ": an unverified row says why");
        }
        if (name.equals("rendezvous-unpin") || name.equals("cache-uffd")) {
            // registering per request: every deregistered range leaves its split behind
            assertTrue(String.valueOf(row.get(PointRun.REASON)).contains("vm.max_map_count"), name + ": " + row);
        }
    }
}
