package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The trace workload and --record-trace from the command line. */
class TraceCliTest {
    private static final String HEADER = "{\"format\":\"pagefabric-trace\",\"version\":1,\"ranks\":2}\n";

    @TempDir
    Path dir;

    /** A bad record is refused in one line naming the file, the line and the field; exit 2. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"rank\":0,\"op\":\"put\",\"addr\":0,\"len\":64,\"peer\":1}|:2: field 'raddr'",
        "{\"rank\":0,\"op\":\"poke\"}|:2: field 'op': 'poke' is not valid; valid values: mmap",
        "{\"rank\":2,\"op\":\"compute\",\"duration\":5}|:2: field 'rank'",
        "{\"rank\":0,\"op\":\"put\",\"addr\":0,\"len\":-4,\"peer\":1,\"raddr\":0}|:2: field 'len'",
        "{\"rank\":0,\"op\":\"send\",\"addr\":0,\"len\":8,\"peer\":0}|:2: field 'peer'",
        "{\"rank\":0,\"op\":\"fork\"}|:2: field 'op': fork is not replayable",
        "{\"rank\":0,\"op\":\"atomic\"}|:2: field 'op': atomic is not replayable",
        "{\"rank\":0,\"op\":\"compute\",\"duration\":5,\"colour\":1}|:2: field 'colour': unknown",
        "{\"rank\":0,\"op\":\"compute\",\"duration\":0.0001}|:2: field 'duration'",
        "{\"rank\":0,\"op\":\"wait\",\"queue\":\"both\"}|:2: field 'queue'",
        "not json|:2: not JSON",
    })
    void aBadRecordIsRefusedWithFileLineAndField(String record, String expected) throws Exception {
        Path f = dir.resolve("bad.trace.jsonl");
        Files.writeString(f, HEADER + record + "\n");
        CliTest.Result r = CliTest.run("run", "trace", "--set", "trace=" + f);
        assertEquals(2, r.code(), r.err());
        String first = r.err().lines().findFirst().orElse("");
        assertTrue(first.contains(f + expected), first);
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void aBadHeaderIsRefused() throws Exception {
        Path f = dir.resolve("v3.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":3,\"ranks\":2}\n"
                + "{\"rank\":0,\"op\":\"compute\",\"duration\":5}\n");
        CliTest.Result r = CliTest.run("run", "trace", "--set", "trace=" + f);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(f + ":1: field 'version': 3 is not readable; this PageFabric reads versions 1 and 2"),
                r.err());
    }

    @Test
    void aMissingTraceIsRefused() {
        CliTest.Result r = CliTest.run("run", "trace");
        assertEquals(2, r.code(), "bad input, checked before any point runs: " + r.err());
        assertTrue(r.err().contains("trace: name the trace to replay"), r.err());
        CliTest.Result missing = CliTest.run("run", "trace", "--set", "trace=" + dir.resolve("none.jsonl"));
        assertEquals(2, missing.code(), missing.err());
        assertTrue(missing.err().contains("none.jsonl: no such file"), missing.err());
    }

    @Test
    void aDirectoryAFifoOrNonUtf8TextIsNoTrace() throws Exception {
        Path fifo = dir.resolve("trace.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor());
        Path latin = java.nio.file.Files.write(dir.resolve("latin.jsonl"), new byte[] {'{', (byte) 0xff, '}', '\n'});
        for (String[] c : new String[][] {{dir.toString(), "is a directory; give a trace file"},
                {fifo.toString(), "is not a regular file (a FIFO, device or socket); give a trace file"},
                {latin.toString(), "is not UTF-8 text"}}) {
            CliTest.Result r = CliTest.run("run", "trace", "--set", "trace=" + c[0]);
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().lines().findFirst().orElse("").contains(c[1]), r.err());
            assertEquals(2, r.err().lines().count(), "one line and the hint: " + r.err());
        }
    }

    @Test
    void aRecordedRunReplaysFromTheCommandLine() throws Exception {
        Path f = dir.resolve("bw.trace.jsonl");
        CliTest.Result rec = CliTest.run("run", "bandwidth", "--policy", "cache-hooks", "--sizes", "16K",
                "--iterations", "20", "--record-trace", f.toString(), "--format", "csv");
        assertEquals(0, rec.code(), rec.err());
        assertTrue(Files.readString(f).startsWith("{\"format\":\"pagefabric-trace\",\"version\":1,\"ranks\":2"));
        CliTest.Result replay = CliTest.run("run", "trace", "--policy", "cache-hooks", "--set", "trace=" + f,
                "--format", "csv");
        assertEquals(0, replay.code(), replay.err());
        String original = rec.out().lines().skip(1).findFirst().orElseThrow();
        String replayed = replay.out().lines().skip(1).findFirst().orElseThrow();
        assertEquals(column(rec.out(), original, "bandwidth_MBps"), column(replay.out(), replayed, "bandwidth_MBps"));
    }

    @Test
    void recordingNeedsOneRun() {
        CliTest.Result r = CliTest.run("run", "latency", "--policy", "pin-all", "--policy", "cache-hooks",
                "--sizes", "4K", "--record-trace", dir.resolve("x.jsonl").toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--record-trace records one run"), r.err());
    }

    @Test
    void aWorkloadWithItsOwnTrafficHasNothingToRecord() {
        Path f = dir.resolve("dht.jsonl");
        CliTest.Result r = CliTest.run("run", "dht-insert", "--policy", "pin-all", "--sizes", "8", "--iterations", "5",
                "--record-trace", f.toString(), "--set", "processes=4", "--set", "processes_per_node=2", "--set",
                "volume_elements=1024");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--record-trace " + f + ": the run made no comm.Rank call"), r.err());
        assertFalse(Files.exists(f), "no partial trace left behind");
    }

    private static String column(String csv, String row, String name) {
        String[] head = csv.lines().findFirst().orElseThrow().split(",");
        String[] cells = row.split(",");
        for (int i = 0; i < head.length; i++) {
            if (head[i].equals(name)) {
                return cells[i];
            }
        }
        throw new AssertionError("no column " + name);
    }
}
