package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.ForkReuseWorkload;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Every policy that carries puts stays correct across fork where the sources say the
 * application is safe: on a kernel that copies pinned pages into the child at fork
 * (os.fork.pinned_pages: early-copy), and on an older kernel when pinned registrations are
 * MADV_DONTFORK (ibv_fork_init). A policy keeping a registration on a page the parent no longer
 * maps, or following the page wrongly after the copy-on-write break, fails here.
 */
class ForkConformanceTest {
    static Stream<String> putPolicies() {
        PolicyRegistry r = PolicyRegistry.standard();
        return r.names().stream().filter(n -> r.descriptor(n).capabilities().contains(Capability.PUT));
    }

    private static Map<String, Object> run(String name, String kernel, String dontFork) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile p = Conformance.profileFor(d).withOverrides(Map.of("os.fork.pinned_pages", kernel), "test");
        return PointRun.run(p, name, WorkloadRegistry.standard().byName("fork-reuse"),
                Map.of("size_B", 16 * 1024, "iterations", 2, ForkReuseWorkload.DONTFORK, dontFork), 3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("putPolicies")
    void aKernelThatCopiesPinnedPagesAtForkKeepsEveryPolicyCorrect(String name) {
        Map<String, Object> row = run(name, "early-copy", "never");
        assertEquals(true, row.get("verified"), name + ": " + row.get("reason"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("putPolicies")
    void dontForkOnPinnedRegistrationsKeepsEveryPolicyCorrectOnAnOlderKernel(String name) {
        Map<String, Object> row = run(name, "shared-cow", "auto");
        assertEquals(true, row.get("verified"), name + ": " + row.get("reason"));
    }
}
