package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** netperf and aa.fig6b from the command line. */
class NetperfCliTest {
    @Test
    void reproducesFig6bQuickly(@TempDir Path dir) throws Exception {
        CliTest.Result r = CliTest.run("reproduce", "aa.fig6b", "--quick", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(dir.resolve("aa.fig6b/rows.json").toFile());
        JsonNode list = rows.isArray() ? rows : rows.get("rows");
        assertEquals(2, list.size(), "no-iommu and e-iommu");
        for (JsonNode row : list) {
            assertTrue(row.get("verified").asBoolean(), row.toString());
            assertTrue(row.get("bandwidth_MBps").asDouble() > 0, row.toString());
        }
        assertTrue(r.out().contains("bandwidth_difference_pct"), r.out());
    }

    @Test
    void anUnknownProtocolIsRefusedWithTheChoices() {
        CliTest.Result r = CliTest.run("run", "netperf", "--profile", "aa-gem5", "--sizes", "1K", "--set",
                "protocol=sctp");
        assertEquals(2, r.code());
        String first = r.err().lines().findFirst().orElse("");
        assertTrue(first.contains("protocol") && first.contains("tcp") && first.contains("udp"), r.err());
    }
}
