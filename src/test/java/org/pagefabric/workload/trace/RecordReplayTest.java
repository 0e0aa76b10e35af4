package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * A recorded run replayed under the same policy does what the run did: the same operations, the
 * same verdict on the bytes, the same pinned-memory curve and, for workloads that time every
 * operation from its post, the same latencies.
 */
class RecordReplayTest {
    private static final Profile PROFILE = ProfileRegistry.load("default");

    @TempDir
    Path dir;

    @AfterEach
    void stopWatching() {
        Job.watch(null);
    }

    /** As a row writes a time. */
    private static double micros(long ps) {
        return Math.round(Time.toMicros(ps) * 1000) / 1000.0;
    }

    @ParameterizedTest
    @CsvSource({
        "latency, cache-hooks, 4096, 5",
        "latency, odp-explicit, 65536, 5",
        "bandwidth, cache-hooks, 65536, 40",
        "bandwidth, rendezvous-unpin, 8192, 40",
        "alloc-reuse, cache-hooks, 262144, 6",
        "alloc-reuse, cache-nomonitor, 262144, 6",
        "alloc-reuse, odp-explicit, 262144, 6",
    })
    void replayMatchesTheRecordedRun(String workload, String policy, long size, int iterations) throws IOException {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("size_B", size);
        params.put("iterations", iterations);
        TraceRecorder recorder = new TraceRecorder("test");
        Job.watch(recorder);
        Map<String, Object> original = PointRun.run(PROFILE, policy, WorkloadRegistry.standard().byName(workload),
                params, 7);
        Job.watch(null);
        StringWriter text = new StringWriter();
        recorder.write(text);
        Path file = dir.resolve(workload + ".trace.jsonl");
        Files.writeString(file, text.toString());

        Trace recorded = Trace.read(file);
        PointRun.Started replay = PointRun.start(PROFILE, policy, new TraceWorkload(),
                Map.of(TraceWorkload.TRACE, file.toString()), 7);
        Map<String, Object> row = replay.finish();
        TraceReplay run = (TraceReplay) replay.run();

        assertEquals(original.get("verified"), row.get("verified"), "verdict on the bytes");
        assertEquals(original.getOrDefault("corrupted", 0L), row.get("corrupted"), "corrupted operations");
        assertEquals((long) recorded.records().size(), row.get("records"));
        if (policy.equals("cache-nomonitor")) {
            assertTrue((Long) row.get("corrupted") > 0, "stale registrations corrupt the replay as they did the run");
        }
        assertEquals(original.get("packets"), row.get("packets"), "packets on the wire");

        long[] curve = run.pinnedCurve();
        long[] expected = new long[recorded.records().size() + 1];
        expected[0] = curve[0];
        for (int i = 0; i < recorded.records().size(); i++) {
            expected[i + 1] = recorded.records().get(i).pinnedBytes();
        }
        assertArrayEquals(expected, curve, "pinned bytes as each record began, and at the end");
        assertEquals(original.get("pinned_MiB"), row.get("pinned_MiB"));

        if (!workload.equals("alloc-reuse")) {
            // the timed operations are the last ones (latency warms up first); each from post to reap
            long[] all = run.sendLatencies();
            long[] timed = Arrays.copyOfRange(all, all.length - iterations, all.length);
            LatencyHistogram h = new LatencyHistogram("timed", "the original's timed operations, replayed");
            Arrays.stream(timed).forEach(h::record);
            assertEquals(original.get("latency_min_us"), micros(h.min()));
            assertEquals(original.get("latency_max_us"), micros(h.max()));
            assertEquals(original.get("latency_p50_us"), micros(h.percentile(50)));
            assertEquals(original.get("latency_us"), micros(Math.round(h.mean())));
        }
        if (workload.equals("bandwidth")) {
            assertEquals(original.get("bandwidth_MBps"), row.get("bandwidth_MBps"));
            assertEquals(original.get("latency_us"), row.get("latency_us"));
        }
    }
}
