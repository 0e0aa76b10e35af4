package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;

/**
 * A real process, recorded with Debian's strace, imported and replayed: a Python loop that
 * allocates a 1 MiB buffer and frees it (glibc maps and unmaps it each time when its mmap
 * threshold is fixed), with a put from each new mapping. A registration cache that hears the
 * unmaps stays correct; one that does not sends stale frames.
 */
class StraceReplayTest {
    private static final Path STRACE = Path.of("/usr/bin/strace");

    @TempDir
    Path dir;

    @Test
    void aRealProgramsChurnReplaysUnderEveryKindOfCache() throws Exception {
        assumeTrue(Files.isExecutable(STRACE), "strace is not installed at " + STRACE
                + " (Debian: apt-get install strace; .ci/run installs it)");
        String python = run(List.of("python3", "-c", "import sys; print(sys.executable)"), Map.of()).strip();
        assumeTrue(!python.isEmpty(), "no python3 to record");
        Path log = dir.resolve("churn.strace");
        // the real interpreter, not a launcher script, so that the log is one program's address space
        run(List.of(STRACE.toString(), "-f", "-tt", "-e", "trace=memory", "-o", log.toString(), python, "-c",
                "for i in range(12):\n    b = bytearray(1 << 20)\n    b[0] = 1\n    del b\n"),
                Map.of("MALLOC_MMAP_THRESHOLD_", "131072"));
        Path trace = dir.resolve("churn.trace.jsonl");
        Files.writeString(trace, "{\"format\":\"pagefabric-trace\",\"version\":1,\"ranks\":2,\"segment_bytes\":1048576,"
                + "\"strace\":[{\"rank\":0,\"file\":\"churn.strace\",\"comm\":{\"op\":\"put\",\"peer\":1,\"len\":65536}}]}\n");

        Trace t = Trace.read(trace);
        long bigMaps = t.records().stream().filter(r -> r.op() == TraceOp.MMAP && r.len() >= 1 << 20).count();
        long bigUnmaps = t.records().stream().filter(r -> r.op() == TraceOp.MUNMAP && r.len() >= 1 << 20).count();
        assertTrue(bigMaps >= 12 && bigUnmaps >= 12, "each buffer mapped and unmapped: " + bigMaps + ", " + bigUnmaps);

        Map<String, Object> hooks = replay(trace, "cache-hooks");
        assertEquals(true, hooks.get("verified"), hooks.toString());
        assertEquals(0L, hooks.get("corrupted"));
        Map<String, Object> blind = replay(trace, "cache-nomonitor");
        assertTrue((Long) blind.get("corrupted") > 0, "the freed buffer's address comes back with new frames: " + blind);
        assertEquals(hooks.get("completions"), blind.get("completions"));
    }

    private static Map<String, Object> replay(Path trace, String policy) {
        return PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                Map.of(TraceWorkload.TRACE, trace.toString()), 1);
    }

    private static String run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            assumeTrue(false, command.get(0) + " cannot be started: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS), command.get(0) + " did not finish in 60 s");
        assumeTrue(p.exitValue() == 0, command.get(0) + " failed (ptrace not permitted here?): " + out.strip());
        return out;
    }
}
