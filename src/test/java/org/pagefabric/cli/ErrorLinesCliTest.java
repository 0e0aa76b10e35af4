package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user reads when a command is refused or a run fails: one line naming the problem in
 * the user's terms, never a Java class name or a stack trace.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ErrorLinesCliTest {
    /** Each command that takes --threads, with the arguments that would otherwise run it. */
    private static List<List<String>> withThreads(Path out, String threads) {
        return List.of(
                List.of("run", "latency", "--sizes", "8", "--iterations", "1", "--out", out.toString()),
                List.of("compare", "latency", "--sizes", "8", "--iterations", "1", "--out", out.toString()),
                List.of("reproduce", "omx.table1", "--quick", "--out", out.toString()),
                List.of("fit", "odp.fault", "--param", "odp.fault.resume=50us..200us", "--target", "fault_4k",
                        "--set", "size_B=4096", "--out", out.resolve("fitted.yaml").toString()),
                List.of("sensitivity", "odp.fault", "--quick", "--out", out.toString()))
                .stream().map(a -> java.util.stream.Stream.concat(a.stream(), java.util.stream.Stream.of("--threads",
                        threads)).toList()).toList();
    }

    @Test
    void aThreadCountOutOfRangeIsOneLineNamingTheValidOnes(@TempDir Path dir) {
        int max = WorkerThreads.max();
        for (String threads : List.of("100000", String.valueOf(max + 1), "0", "-1")) {
            Path out = dir.resolve("out" + threads);
            for (List<String> args : withThreads(out, threads)) {
                CliTest.Result r = CliTest.run(args.toArray(String[]::new));
                assertEquals(2, r.code(), args + ": " + r.err());
                assertEquals("", r.out(), args + ": nothing ran");
                String first = r.err().lines().findFirst().orElse("");
                assertTrue(first.contains("--threads " + threads + ": out of range; valid: 1 to " + max), args + ": " + r.err());
                assertTrue(r.err().lines().count() <= 2, args + ": one line and a hint: " + r.err());
                assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), args + ": " + r.err());
                assertFalse(Files.exists(out), args + ": refused before --out was made");
            }
        }
        assertTrue(max >= 1024 && max >= 64 * Runtime.getRuntime().availableProcessors());
    }

    @Test
    void theLargestThreadCountIsTaken() {
        CliTest.Result r = CliTest.run("run", "latency", "--sizes", "8", "--iterations", "1", "--threads",
                String.valueOf(WorkerThreads.max()));
        assertEquals(0, r.code(), r.err());
    }

    // Firehose moves its firehoses by active messages; at 90 % loss the transport gives up on one,
    // and the rank's active-message server (a simulated process) fails inside the model.
    private static final List<String> FAILING = List.of("latency", "--policy", "firehose", "--sizes", "8",
            "--iterations", "2", "--set", "link.loss=0.9");
    private static final String CAUSE = "process node0.rank0-am failed at 536.891 ms: rank 0: active message failed:"
            + " RETRY_EXCEEDED";

    @Test
    void aRunThatFailsInTheModelSaysWhyWithoutJavaClassNames() {
        CliTest.Result r = CliTest.run(java.util.stream.Stream.concat(java.util.stream.Stream.of("run"),
                FAILING.stream()).toArray(String[]::new));
        assertEquals(1, r.code(), r.err());
        assertEquals(List.of("pagefabric run: error: point 0 (size_B=8 iterations=2 link.loss=0.9 policy=firehose"
                + " rep=0) failed: " + CAUSE), r.err().lines().toList());
    }

    @Test
    void aComparisonWhosePolicyFailsSaysWhyWithoutJavaClassNames() {
        CliTest.Result r = CliTest.run(java.util.stream.Stream.concat(java.util.stream.Stream.of("compare"),
                FAILING.stream()).toArray(String[]::new));
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("compare: failed: firehose: " + CAUSE + "\n"), r.err());
        assertFalse(r.err().contains("org.pagefabric") || r.err().contains("Exception"), r.err());
    }

    @Test
    void aCauseQuotedByItsWrapperIsGivenByItsMessage() {
        IllegalStateException bug = new IllegalStateException("queue pair 3 is not ready");
        RuntimeException inModel = new RuntimeException("event type 2 at 1 us in nic0 failed: " + bug, bug);
        RuntimeException point = new RuntimeException("point 0 failed: " + inModel, inModel);
        assertEquals("point 0 failed: event type 2 at 1 us in nic0 failed: queue pair 3 is not ready",
                Main.message(point));
        assertEquals("queue pair 3 is not ready", Main.message(new RuntimeException(bug)));
        assertEquals("NullPointerException", Main.message(new RuntimeException(null, new NullPointerException())));
    }
}
