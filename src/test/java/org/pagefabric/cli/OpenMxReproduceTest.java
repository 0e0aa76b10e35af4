package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code reproduce omx.table1 --quick} end to end: the pin-cost sweep over a profile grid. */
class OpenMxReproduceTest {
    @Test
    void table1RunsQuicklyAndWritesItsRows(@TempDir Path dir) throws Exception {
        CliTest.Result r = CliTest.run("reproduce", "omx.table1", "--quick", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("pin_per_page_ns"), r.out());
        JsonNode rows = new ObjectMapper().readTree(dir.resolve("omx.table1/rows.json").toFile());
        assertTrue(rows.size() > 0);
        for (JsonNode row : rows) {
            assertEquals("pin-cost", row.get("workload").asText());
            assertTrue(row.get("verified").asBoolean(), row.toString());
            assertTrue(row.get("pin_per_page_ns").asDouble() > 0);
        }
        assertTrue(Files.size(dir.resolve("omx.table1/report.html")) > 0);
        CliTest.Result bad = CliTest.run("reproduce", "omx.table1", "--quick", "--set", "profile=nosuch", "--out",
                dir.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("nosuch") && bad.err().contains("openmx-xeon5460"), bad.err());
    }
}
