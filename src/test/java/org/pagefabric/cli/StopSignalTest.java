package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long reproduce stopped by a signal (what Ctrl-C and a scheduler's kill send) keeps its
 * finished rows and writes its plots and report for them, with a manifest saying the run is
 * incomplete: the writing happens in a JVM that is not shutting down.
 */
class StopSignalTest {
    /**
     * Waits until the child runs points: a worker thread exists (Linux names threads in
     * /proc/PID/task/TID/comm, cut to 15 characters), so its signal handler is installed, and
     * {@code ready} holds. A loaded machine starts a JVM in anything from one to many seconds, so
     * a fixed sleep would either waste time or signal a JVM that has not started yet.
     */
    private static void awaitRunning(Process p, java.util.function.BooleanSupplier ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        Path tasks = Path.of("/proc", Long.toString(p.pid()), "task");
        while (System.nanoTime() < deadline && p.isAlive()) {
            boolean worker = false;
            try (var ts = Files.list(tasks)) {
                for (Path t : ts.toList()) {
                    try {
                        worker |= Files.readString(t.resolve("comm")).startsWith("pagefabric-poin");
                    } catch (java.io.IOException gone) {
                        // the thread ended while listed
                    }
                }
            } catch (java.io.IOException e) {
                // the process is ending
            }
            if (worker && ready.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
    }
    @Test
    void aStoppedRunWritesItsReportForTheFinishedRows(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "org.pagefabric.cli.Main", "reproduce", "omx.table2", "--threads", "1", "--out", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("log.txt").toFile()).start();
        // a point has finished (it is in the cache) and others run
        Path points = dir.resolve(".points");
        awaitRunning(p, () -> {
            try (var fs = Files.list(points)) {
                return fs.anyMatch(f -> f.toString().endsWith(".json"));
            } catch (java.io.IOException notYet) {
                return false;
            }
        });
        assertTrue(p.isAlive(), "the full experiment runs for minutes; it ended early: "
                + Files.readString(dir.resolve("log.txt")));
        p.destroy(); // SIGTERM, handled like Ctrl-C
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the stopped run did not exit");
        assertEquals(3, p.exitValue(), "a stopped sweep is not a whole one");
        String log = Files.readString(dir.resolve("log.txt"), StandardCharsets.UTF_8);
        Path out = dir.resolve("omx.table2");
        for (String f : List.of("rows.csv", "manifest.json", "report.html")) {
            assertTrue(Files.exists(out.resolve(f)), f + " missing after the stop; log: " + log);
        }
        assertTrue(Files.readString(out.resolve("manifest.json")).matches("(?s).*\"complete\"\\s*:\\s*false.*"));
        assertTrue(log.contains("stopped early"), log);
        assertTrue(!log.contains("Shutdown in progress") && !log.contains("Exception"), log);
    }

    /** {@code run} stopped by a signal prints the rows of the sizes that finished, then says it stopped. */
    @Test
    void aStoppedRunPrintsItsFinishedRows(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // 8 bytes finishes in milliseconds, 256 MiB in about 15 s, 512 MiB would take twice that;
        // the point in flight when the signal comes finishes, the next one never starts
        Process p = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "org.pagefabric.cli.Main", "run", "latency", "--sizes", "8,256M,512M", "--iterations", "200",
                "--threads", "1", "--format", "csv")
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        awaitRunning(p, () -> true);
        // the 8-byte point takes milliseconds: the 256 MiB one is in flight
        Thread.sleep(1_000);
        assertTrue(p.isAlive(), "the 256 MiB size runs for seconds; the run ended early: "
                + Files.readString(dir.resolve("err.txt")));
        p.destroy();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the stopped run did not exit");
        assertEquals(3, p.exitValue(), "a stopped run is not a whole one");
        List<String> rows = Files.readAllLines(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        assertTrue(rows.size() == 2 || rows.size() == 3, "the header, the 8-byte row, and the 256 MiB one if it"
                + " had started: " + rows + "; stderr: " + err);
        assertTrue(rows.get(0).startsWith("experiment,point,repetition,"), rows.get(0));
        assertTrue(rows.get(1).startsWith("run.latency,0,0,latency,pin-all,default,1,8,200,"), rows.get(1));
        if (rows.size() == 3) {
            assertTrue(rows.get(2).startsWith("run.latency,1,0,latency,pin-all,default,1,268435456,200,"), rows.get(2));
        }
        assertTrue(err.contains("stopped early; the rows above are the finished ones"), err);
        assertTrue(!err.contains("Exception"), err);
    }
}
