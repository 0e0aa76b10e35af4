package org.pagefabric.cli;

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
    @Test
    void aStoppedRunWritesItsReportForTheFinishedRows(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "org.pagefabric.cli.Main", "reproduce", "omx.table2", "--threads", "1", "--out", dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("log.txt").toFile()).start();
        Thread.sleep(8_000);
        assertTrue(p.isAlive(), "the full experiment runs for minutes; it ended early: "
                + Files.readString(dir.resolve("log.txt")));
        p.destroy(); // SIGTERM, handled like Ctrl-C
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the stopped run did not exit");
        String log = Files.readString(dir.resolve("log.txt"), StandardCharsets.UTF_8);
        Path out = dir.resolve("omx.table2");
        for (String f : List.of("rows.csv", "manifest.json", "report.html")) {
            assertTrue(Files.exists(out.resolve(f)), f + " missing after the stop; log: " + log);
        }
        assertTrue(Files.readString(out.resolve("manifest.json")).matches("(?s).*\"complete\"\\s*:\\s*false.*"));
        assertTrue(log.contains("stopped early"), log);
        assertTrue(!log.contains("Shutdown in progress") && !log.contains("Exception"), log);
    }
}
