package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row that failed the end-to-end data check is the first thing {@code run} and {@code compare}
 * say, before any figure; machine-readable output stays pure and gets the line beside it.
 */
class NotVerifiedOutputTest {
    // a cache without a monitor keeps the freed 1 MiB buffer registered: the reallocated one's bytes go astray
    private static final String[] RUN = {"run", "alloc-reuse", "--policy", "cache-nomonitor", "--policy", "cache-mmu",
        "--sizes", "1M", "--iterations", "3"};

    @Test
    void runSaysNotVerifiedBeforeTheTableAndShowsTheReason() {
        CliTest.Result r = CliTest.run(RUN);
        assertEquals(1, r.code(), r.err());
        String first = r.out().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("NOT VERIFIED: 1 of 2 rows failed the end-to-end data check (cache-nomonitor at"
                + " size_B=1048576: ") && first.contains("delivered wrong bytes"), first);
        String stale = r.out().lines().filter(l -> l.strip().startsWith("cache-nomonitor")).findFirst().orElseThrow();
        assertTrue(stale.contains("false") && stale.contains("wrong bytes"), stale);
    }

    @Test
    void runAsCsvKeepsStdoutPureAndPutsTheLineFirstOnStderr() {
        String[] csv = java.util.Arrays.copyOf(RUN, RUN.length + 2);
        csv[RUN.length] = "--format";
        csv[RUN.length + 1] = "csv";
        CliTest.Result r = CliTest.run(csv);
        assertEquals(1, r.code());
        assertTrue(r.out().startsWith("experiment,"), r.out());
        assertTrue(r.err().startsWith("NOT VERIFIED: 1 of 2 rows"), r.err());
        String stale = r.out().lines().filter(l -> l.contains(",cache-nomonitor,")).findFirst().orElseThrow();
        assertTrue(stale.contains(",,,,"), "blank figures: " + stale);
    }

    @Test
    void compareSaysNotVerifiedBeforeTheRanking() {
        CliTest.Result r = CliTest.run("compare", "alloc-reuse", "--policy", "cache-nomonitor", "--policy", "cache-mmu",
                "--sizes", "1M");
        assertEquals(0, r.code(), r.err());
        String first = r.out().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("NOT VERIFIED: 1 of 2 rows failed the end-to-end data check (cache-nomonitor at"
                + " size_B=1048576"), first);
    }

    @Test
    void reproduceSaysNotVerifiedBeforeItsTablesAndTheIndexSaysItToo(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("reuse.yaml");
        Files.writeString(spec, """
                id: test.reuse
                title: Transfers after malloc and free
                workload: alloc-reuse
                policies: [cache-nomonitor, cache-mmu]
                profile: default
                grid: {size_B: 1048576, iterations: 3}
                plot: {x: size_B, y: latency_us, series: policy}
                """);
        CliTest.Result r = CliTest.run("reproduce", spec.toString(), "--out", dir.resolve("out").toString());
        assertEquals(1, r.code(), r.err());
        String first = r.out().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("test.reuse: NOT VERIFIED: 1 of 2 rows failed the end-to-end data check (cache-nomonitor"
                + " at size_B=1048576: ") && first.contains("delivered wrong bytes"), first);
        String index = Files.readString(dir.resolve("out").resolve("index.html"));
        assertTrue(index.contains("NOT VERIFIED: 1 of 2 rows failed the end-to-end data check"), index);
    }

    @Test
    void aVerifiedRunSaysNothingOfIt() {
        CliTest.Result r = CliTest.run("run", "alloc-reuse", "--policy", "cache-mmu", "--sizes", "4K", "--iterations",
                "3");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("NOT VERIFIED") || r.err().contains("NOT VERIFIED"), r.out());
        assertFalse(r.out().contains("reason"), "no reason column when every row verified: " + r.out());
    }
}
