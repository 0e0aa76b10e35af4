package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the terminal tables show is what the rows hold: each column once, no column a workload does
 * not measure, values where the policy has them; and a word that is not a command is said to be one.
 */
class OutputColumnsTest {
    private static List<String> header(String table) {
        return Arrays.asList(table.lines().findFirst().orElse("").trim().split("\\s+"));
    }

    @Test
    void anUnknownCommandIsNamedWithOrWithoutHelp() {
        for (String[] args : new String[][] {{"replay", "--help"}, {"replay"}, {"replay", "x", "-h"}}) {
            CliTest.Result r = CliTest.run(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals("", r.out(), "no usage text on standard output");
            assertTrue(r.err().startsWith("pagefabric: unknown command 'replay'; commands: run, reproduce, compare"),
                    r.err());
        }
        assertEquals(0, CliTest.run("--help").code());
        assertEquals(0, CliTest.run("run", "--help").code());
    }

    @Test
    void aLatencyTableShowsNoBandwidthItDoesNotMeasure() {
        CliTest.Result r = CliTest.run("run", "latency", "--sizes", "8", "--iterations", "2");
        assertEquals(0, r.code(), r.err());
        List<String> cols = header(r.out());
        assertFalse(cols.contains("bandwidth_MBps"), r.out());
        assertTrue(cols.contains("latency_us"), r.out());
        CliTest.Result bw = CliTest.run("run", "bandwidth", "--sizes", "64K", "--iterations", "2");
        assertTrue(header(bw.out()).contains("bandwidth_MBps"), bw.out());
    }

    @Test
    void aTraceTableHasEachColumnOnceAndTheCachesHitRate() {
        CliTest.Result r = CliTest.run("run", "trace", "--set", "trace=docs/examples/halo-exchange.trace.jsonl",
                "--policy", "cache-hooks");
        assertEquals(0, r.code(), r.err());
        List<String> cols = header(r.out());
        assertEquals(cols.stream().distinct().toList(), cols, "a column twice: " + r.out());
        int hit = cols.indexOf("hit_rate_pct");
        assertTrue(hit >= 0, r.out());
        String[] cells = r.out().lines().skip(1).findFirst().orElse("").trim().split("\\s+");
        assertEquals(cols.size(), cells.length, "every cell filled, the hit rate too: " + r.out());
        double rate = Double.parseDouble(cells[hit]);
        assertTrue(rate >= 0 && rate <= 100, r.out());
    }

    @Test
    void schemesThatCountTheirTrafficInBytesAreComparedByBytes(@TempDir Path dir) throws Exception {
        CliTest.Result r = CliTest.run("compare", "aa.fig8", "--quick", "--schemes", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        String ranking = Files.readString(dir.resolve("compare-aa.fig8/ranking.csv"));
        List<String> cols = Arrays.asList(ranking.lines().findFirst().orElseThrow().split(","));
        assertFalse(cols.contains("packets"), "packets the application never sends: " + ranking);
        int bytes = cols.indexOf("bytes_communicated");
        assertTrue(bytes >= 0, ranking);
        ranking.lines().skip(1).forEach(l -> assertTrue(Long.parseLong(l.split(",")[bytes]) > 0, l));
    }
}
