package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run --timeline: Chrome trace-event JSON of one run, bounded, and refused for more than one run. */
class TimelineCliTest {
    @TempDir
    Path dir;

    @Test
    void theLammpsReplayHasEveryTrackAndSpan() throws Exception {
        Path f = dir.resolve("melt.json");
        CliTest.Result r = CliTest.run("run", "trace", "--set", "trace=docs/examples/lammps-melt.trace.jsonl", "--policy",
                "cache-hooks", "--timeline", f.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode d = new ObjectMapper().readTree(f.toFile());
        Set<String> names = new HashSet<>();
        Set<String> threads = new HashSet<>();
        Map<String, Integer> spans = new HashMap<>();
        double lastPinned = -1;
        for (JsonNode e : d.get("traceEvents")) {
            String ph = e.get("ph").asText();
            if (ph.equals("M") && e.get("name").asText().equals("thread_name")) {
                threads.add(e.get("pid").asInt() + "/" + e.get("args").get("name").asText());
            } else if (ph.equals("X")) {
                names.add(e.get("name").asText());
                spans.merge(e.get("name").asText(), 1, Integer::sum);
                assertTrue(e.get("dur").asDouble() >= 0, e.toString());
            } else if (ph.equals("C")) {
                lastPinned = e.get("args").get("MiB").asDouble();
            }
        }
        for (int n = 0; n < 4; n++) {
            assertTrue(threads.contains(n + "/rank " + n), threads.toString());
            assertTrue(threads.contains(n + "/NIC"), threads.toString());
            assertTrue(threads.contains(n + "/kernel"), threads.toString());
        }
        assertTrue(names.containsAll(Set.of("registration", "wait", "compute", "transfer", "pin (get_user_pages)")),
                names.toString());
        // the replay's receives and sends are each one transfer: 2 x 172 halo messages a rank at least
        assertTrue(spans.get("transfer") > 4 * 2 * 172, spans.toString());
        assertTrue(lastPinned > 0, "the pinned-memory counter rose");
        assertEquals(0, d.get("otherData").get("dropped").asInt());
    }

    @Test
    void aTimelineOverItsCapKeepsTheFirstEventsAndSaysSo() throws Exception {
        Path f = dir.resolve("capped.json");
        CliTest.Result r = CliTest.run("run", "trace", "--set", "trace=docs/examples/halo-exchange.trace.jsonl",
                "--policy", "cache-hooks", "--timeline", f.toString(), "--timeline-events", "50");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("--timeline " + f + ": kept the first 50 events of "), r.err());
        JsonNode d = new ObjectMapper().readTree(f.toFile());
        assertEquals(50, d.get("otherData").get("events").asInt());
        assertTrue(d.get("otherData").get("dropped").asInt() > 0);
    }

    @Test
    void aTimelineShowsOneRun() {
        CliTest.Result r = CliTest.run("run", "latency", "--policy", "cache-hooks", "--policy", "pin-all", "--sizes", "4K",
                "--timeline", dir.resolve("t.json").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pagefabric run: --timeline shows one run: give one --policy"), r.err());
        assertFalse(Files.exists(dir.resolve("t.json")));
    }

    @Test
    void recordNeedsAProgram() {
        CliTest.Result r = CliTest.run("record", "--out", dir.resolve("x.trace.jsonl").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("Missing required parameter: 'COMMAND'"), r.err());
        CliTest.Result dirOut = CliTest.run("record", "--out", dir.toString(), "--", "mpirun", "-n", "2", "./app");
        assertEquals(2, dirOut.code());
        assertTrue(dirOut.err().contains("--out " + dir + " is a directory"), dirOut.err());
    }
}
