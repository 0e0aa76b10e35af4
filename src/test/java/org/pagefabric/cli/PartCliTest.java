package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PART's experiments and workloads from the command line. */
class PartCliTest {
    @Test
    void reproducesTheFaultBreakdownQuickly(@TempDir Path dir) throws Exception {
        CliTest.Result r = CliTest.run("reproduce", "part.fig8", "--quick", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(dir.resolve("part.fig8/rows.json").toFile());
        JsonNode list = rows.isArray() ? rows : rows.get("rows");
        assertTrue(list.size() > 0);
        for (JsonNode row : list) {
            assertTrue(row.get("verified").asBoolean(), row.toString());
            assertTrue(row.get("phase_tasklet_us").asDouble() > 0, row.toString());
        }
        assertTrue(r.out().contains("phase_tasklet_us"), "the comparison lists the breakdown: " + r.out());
    }

    @Test
    void aFaultFractionOutOfRangeIsRefusedWithTheValidRange() {
        CliTest.Result r = CliTest.run("run", "fault-latency", "--policy", "part-pio", "--profile", "part-forth",
                "--sizes", "4K", "--set", "fault_fraction=1.5");
        assertEquals(2, r.code());
        String first = r.err().lines().findFirst().orElse("");
        assertTrue(first.contains("fault_fraction") && first.contains("from 0 to 1"), r.err());
    }

    @Test
    void partPoliciesAreListed() {
        CliTest.Result r = CliTest.run("info", "policies");
        for (String p : new String[] {"part-pio", "part-pi4", "part-pia", "part-pio-timeout", "transfer-only",
            "pin-mlock", "touch-nopres", "touch-pres"}) {
            assertTrue(r.out().contains(p), p);
        }
    }
}
