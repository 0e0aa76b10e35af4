package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Every policy meets the process limits as a real runtime meets them: a run that a limit stops
 * (RLIMIT_MEMLOCK, vm.max_map_count) ends with an unverified row whose reason names the limit,
 * never with an exception; a policy the limit does not concern runs as if it were not there; and
 * a policy that carries no one-sided puts refuses both workloads before anything runs.
 */
class LimitsConformanceTest {
    private static final long SIZE = 64 * 1024;
    /** Policies that mlock their memory rather than pin it: held to RLIMIT_MEMLOCK with nothing pinned. */
    private static final Set<String> LOCKS_WITHOUT_PINNING = Set.of("pin-mlock");

    static Stream<String> policies() {
        return PolicyRegistry.standard().names().stream();
    }

    /** MX has no one-sided operations (003): Open-MX's policies refuse puts, every other policy carries them. */
    private static boolean carriesPuts(String name) {
        boolean declared = PolicyRegistry.standard().descriptor(name).capabilities().contains(Capability.PUT);
        assertEquals(!name.startsWith("openmx-"), declared, name + " declares one-sided puts: " + declared);
        return declared;
    }

    private static Map<String, Object> latency(String name, Map<String, String> overrides) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile p = Conformance.profileFor(d).withOverrides(overrides, "limits conformance");
        Workload w = WorkloadRegistry.standard().byName("latency");
        return PointRun.run(p, name, w, SIZE, 3, 1);
    }

    private static void assertRefusesPuts(String name, Runnable run) {
        PolicyRefusal r = assertThrows(PolicyRefusal.class, run::run, name + " declares no one-sided puts");
        assertTrue(r.getMessage().contains("one-sided puts"), name + ": " + r.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void aPolicyOverRlimitMemlockFailsWithAReason(String name) {
        if (!carriesPuts(name)) {
            assertRefusesPuts(name, () -> latency(name, Map.of()));
            return;
        }
        Map<String, Object> free = latency(name, Map.of());
        assertEquals(true, free.get("verified"), name + " without a limit: " + free.get(PointRun.REASON));
        Map<String, Object> limited = latency(name, Map.of("os.memlock_limit", "16KiB"));
        double pinnedBytes = ((Number) free.get("pinned_MiB")).doubleValue() * (1 << 20);
        if (pinnedBytes > 16 * 1024 || LOCKS_WITHOUT_PINNING.contains(name)) {
            assertEquals(false, limited.get("verified"),
                    name + " pins " + pinnedBytes + " B yet ran under a 16 KiB RLIMIT_MEMLOCK");
            assertTrue(String.valueOf(limited.get(PointRun.REASON)).contains("RLIMIT_MEMLOCK"),
                    name + ": " + limited.get(PointRun.REASON));
        } else {
            assertEquals(0.0, pinnedBytes, name + " pins less than the limit but not nothing");
            assertEquals(true, limited.get("verified"),
                    name + " pins and locks nothing, yet RLIMIT_MEMLOCK stopped it: " + limited.get(PointRun.REASON));
        }
    }

    /**
     * With {@code ibv_dontfork_range} on registration and no {@code ibv_dofork_range} on
     * deregistration, every range registered inside a mapping splits its VMA for good: policies that
     * register per operation (Rendezvous, the pin-down caches, Firehose's buckets) run out of
     * vm.max_map_count; those that register whole segments once, or never pin, do not.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void aPolicyPastVmMaxMapCountFailsWithAReason(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile p = Conformance.profileFor(d).withOverrides(Map.of("nic.register.dontfork", "true",
                "nic.deregister.dofork", "false", "os.max_map_count", "16"), "limits conformance");
        Workload w = WorkloadRegistry.standard().byName("fh-put-latency");
        Map<String, Object> params = Map.of("size_B", 64L, "iterations", 100, "warm_up", false,
                "working_set_MiB", 4, "source_area_MiB", 4);
        if (!carriesPuts(name)) {
            assertRefusesPuts(name, () -> PointRun.run(p, name, w, params, 1));
            return;
        }
        Map<String, Object> row = PointRun.run(p, name, w, params, 1);
        boolean perOperation = name.startsWith("rendezvous-") || name.startsWith("cache-") || name.equals("firehose");
        if (perOperation) {
            assertEquals(false, row.get("verified"), name + " registers per operation yet never ran out of VMAs");
            assertTrue(String.valueOf(row.get(PointRun.REASON)).contains("vm.max_map_count"), name + ": " + row);
        } else {
            assertEquals(true, row.get("verified"), name + ": " + row.get(PointRun.REASON));
        }
    }
}
