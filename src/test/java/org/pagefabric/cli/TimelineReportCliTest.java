package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run and compare with --out: the report shows the timeline of one point (run: the first; compare:
 * the policy ranked first at the first size), its trace-event file is beside it, and recording it
 * changes no row.
 */
class TimelineReportCliTest {
    @TempDir
    Path dir;

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static String section(String html) {
        Matcher m = Pattern.compile("<section id=\"timeline\">.*?</section>", Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), "the report has no timeline section");
        return m.group();
    }

    @Test
    void runsReportShowsTheFirstPointsTimelineAndTheRowsAreThoseOfARunWithout() throws Exception {
        String[] args = {"run", "latency", "--policy", "cache-hooks", "--sizes", "8,64K", "--iterations", "5",
            "--format", "csv"};
        CliTest.Result plain = CliTest.run(args);
        assertEquals(0, plain.code(), plain.err());
        String[] withOut = java.util.Arrays.copyOf(args, args.length + 2);
        withOut[args.length] = "--out";
        withOut[args.length + 1] = dir.toString();
        CliTest.Result r = CliTest.run(withOut);
        assertEquals(0, r.code(), r.err());
        assertEquals(plain.out(), r.out(), "recording the timeline changes no row");
        Path run = dir.resolve("run.latency");
        String timeline = section(Files.readString(run.resolve("report.html")));
        assertTrue(timeline.contains("The run&#39;s first point: size_B=8 "), timeline.substring(0, 300));
        // two ranks on two nodes: a lane per rank, NIC and kernel
        assertEquals(6, count(timeline, "<g class=\"lane\""));
        assertTrue(count(timeline, "<rect class=\"span ") > 10, "spans drawn");
        assertTrue(timeline.contains("<polyline"), "the pinned-memory line");
        assertTrue(timeline.contains("simulated time ("), "the time axis");
        assertTrue(timeline.contains("<a href=\"timeline.json\">"), "the trace-event file is linked");
        JsonNode d = new ObjectMapper().readTree(run.resolve("timeline.json").toFile());
        assertEquals(0, d.get("otherData").get("dropped").asInt());
        assertTrue(d.get("otherData").get("title").asText().contains("size_B=8"), d.get("otherData").toString());
        int spans = 0;
        for (JsonNode e : d.get("traceEvents")) {
            spans += e.get("ph").asText().equals("X") ? 1 : 0;
        }
        assertTrue(timeline.contains(spans + " spans in 6 lanes"), "the drawing counts the file's spans: " + spans);
        assertTrue(Files.readString(run.resolve("manifest.json")).contains("\"complete\""), "the manifest is written");
    }

    @Test
    void comparesReportShowsTheWinnersTimeline() throws Exception {
        CliTest.Result r = CliTest.run("compare", "latency", "--policy", "pin-all", "--policy", "cache-hooks",
                "--sizes", "4K", "--iterations", "5", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        Path cmp = dir.resolve("compare-latency");
        String ranking = Files.readString(cmp.resolve("ranking.csv"));
        String winner = ranking.lines().skip(1).findFirst().orElseThrow().split(",")[2];
        assertTrue(winner.equals("pin-all") || winner.equals("cache-hooks"), ranking);
        String timeline = section(Files.readString(cmp.resolve("report.html")));
        assertTrue(timeline.contains("The policy ranked first at size_B 4096, " + winner + ": its point size_B=4096 "),
                timeline.substring(0, 400));
        assertTrue(timeline.contains("policy=" + winner), "the winner's own point");
        assertEquals(6, count(timeline, "<g class=\"lane\""));
        JsonNode d = new ObjectMapper().readTree(cmp.resolve("timeline.json").toFile());
        assertTrue(d.get("otherData").get("title").asText().contains("policy=" + winner));
    }
}
