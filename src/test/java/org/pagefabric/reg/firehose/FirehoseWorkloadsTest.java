package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.hw.profile.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workloads;

/** The Firehose microbenchmarks run end to end under {@code firehose} with M small enough that firehoses move. */
class FirehoseWorkloadsTest {
    /**
     * The seed's testbed with M = 2 MiB and MAXVICTIM = 2 MiB: a working set of 8 MiB overflows
     * both, and 16 puts of 64 KiB in flight (1 MiB of local buffers) fit in MAXVICTIM.
     */
    static Profile smallM() {
        return ProfileRegistry.load("firehose-myrinet").withOverrides(
                Map.of("firehose.m", "2 MiB", "firehose.maxvictim", "2 MiB"), "test");
    }

    static Map<String, Object> params(long workingSetMiB, long size, long puts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("working_set_MiB", workingSetMiB);
        p.put("size_B", size);
        p.put("source_area_MiB", 1);
        p.put("puts", puts);
        return p;
    }

    @Test
    void smoke() {
        Map<String, Object> row = PointRun.run(smallM(), "firehose", Workloads.byName("fh-put-latency"),
                params(8, 8, 300), 1);
        System.out.println(row);
        Map<String, Object> row2 = PointRun.run(smallM(), "firehose", Workloads.byName("fh-put-bandwidth"),
                params(8, 65536, 100), 1);
        System.out.println(row2);
        assertEquals(true, row.get("verified"));
        assertTrue(true);
    }
}
