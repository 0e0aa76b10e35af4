package org.pagefabric.reg.ats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Over random message sizes and random non-present pages at either end (fixed seeds), ats-pri's
 * writes on a lossless network all verify and no transport time-out fires: a page missing at the source
 * stalls the send until its Page Request is answered (one at the destination is answered
 * RECEIVER_NOT_READY and retried after the back-off, not the time-out). Resending after the
 * time-out, as a device that drops the read would, fails here.
 */
class AtsSendStallPropertyTest {
    static LongStream seeds() {
        return LongStream.rangeClosed(1, 40);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void sourceFaultsNeverWaitForTheTransportsTimeOut(long seed) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L);
        Map<String, Object> params = Map.of(
                "size_B", 1 + r.nextInt(48 * 1024),
                "iterations", 1 + r.nextInt(3),
                "fault_fraction", r.nextInt(4) / 4.0,
                "source_fault_fraction", (1 + r.nextInt(4)) / 4.0);
        Map<String, Object> row = PointRun.run(AtsPriPolicyTest.PROFILE, AtsPriPolicy.NAME,
                WorkloadRegistry.standard().byName("fault-latency"), params, seed);
        assertEquals(true, row.get("verified"), params + ": " + row.get(PointRun.REASON));
        assertEquals(0L, ((Number) row.get("timeouts")).longValue(), params + ": " + row);
    }
}
