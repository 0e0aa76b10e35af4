package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.DmaBufMovesWorkload;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Every policy that carries puts stays correct when the exporter of the memory it sends moves
 * the buffer before each transfer: either the policy's pin keeps the buffer where it is (a static
 * attachment) or it follows the move (a dynamic one). A policy whose NIC mapping outlived a move
 * would send the old frames' bytes and fail here; and the exporter moved only unpinned buffers.
 */
class DmaBufConformanceTest {
    static Stream<String> putPolicies() {
        PolicyRegistry r = PolicyRegistry.standard();
        return r.names().stream().filter(n -> r.descriptor(n).capabilities().contains(Capability.PUT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("putPolicies")
    void everyPolicyFollowsOrPreventsTheExportersMoves(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        int iterations = 3;
        Map<String, Object> row = PointRun.run(Conformance.profileFor(d), name,
                WorkloadRegistry.standard().byName("dmabuf-moves"),
                Map.of("size_B", 16 * 1024, "iterations", iterations, DmaBufMovesWorkload.MOVE_EVERY, 1), 3);
        assertEquals(true, row.get("verified"), name + ": " + row.get("reason"));
        assertEquals((long) iterations, (long) row.get(DmaBufMovesWorkload.MOVES)
                + (long) row.get(DmaBufMovesWorkload.MOVES_BLOCKED), name + ": every move was tried");
    }
}
