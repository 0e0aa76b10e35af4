package org.pagefabric.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.trace.Trace;
import org.pagefabric.workload.trace.TraceOp;
import org.pagefabric.workload.trace.TraceRecord;
import org.pagefabric.workload.trace.TraceWorkload;

/**
 * Real MPI programs recorded with Debian's Open MPI and replayed: every call the interposer counted
 * is performed on replay and every byte verifies; programs that cannot be recorded are refused in
 * one line and leave no trace behind. Skipped, saying why, where mpicc or mpirun is missing.
 */
class MpiRecordTest {
    @TempDir
    static Path dir;

    private static Path cache;

    @BeforeAll
    static void needsOpenMpi() {
        assumeTrue(Executables.find("mpicc") != null && Executables.find("mpirun") != null,
                "Open MPI is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev); .ci/run installs it");
        cache = dir.resolve("cache");
    }

    private static Path compile(String source, String... flags) throws IOException, InterruptedException {
        Path src = dir.resolve(source);
        try (InputStream in = MpiRecordTest.class.getResourceAsStream(source)) {
            Files.write(src, in.readAllBytes());
        }
        Path exe = dir.resolve(source.replace(".c", "") + (flags.length > 0 ? "-static" : ""));
        List<String> cmd = new java.util.ArrayList<>(List.of(flags.length > 0 ? "cc" : "mpicc", "-O1", "-o",
                exe.toString(), src.toString()));
        cmd.addAll(List.of(flags));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "compiling " + source);
        return exe;
    }

    @Test
    void everyKindOfCallIsRecordedAndReplayedExactly() throws Exception {
        Path exe = compile("mpi-mix.c");
        Path out = dir.resolve("mix.trace.jsonl");
        MpiRecorder.Result r = MpiRecorder.record(List.of("mpirun", "-n", "4", exe.toString()), out, cache);
        assertEquals(4, r.ranks());
        Trace t = Trace.read(out);
        assertNotNull(t.header().mpiCalls());
        long tally = 0;
        for (Map<String, Long> rank : t.header().mpiCalls()) {
            tally += rank.values().stream().mapToLong(Long::longValue).sum();
            for (String call : List.of("MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Test", "MPI_Sendrecv",
                    "MPI_Allreduce", "MPI_Alltoallv", "MPI_Comm_split", "MPI_Win_create", "MPI_Put", "MPI_Get",
                    "MPI_Accumulate", "MPI_Win_fence", "MPI_Win_unlock")) {
                assertTrue(rank.getOrDefault(call, 0L) > 0, call + " in " + rank);
            }
        }
        assertEquals(r.calls(), tally);
        for (String policy : List.of("cache-hooks", "odp-explicit", "rendezvous-unpin")) {
            Map<String, Object> row = PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                    Map.of(TraceWorkload.TRACE, out.toString()), 1);
            assertEquals(true, row.get("verified"), policy + ": " + row);
            assertEquals(tally, row.get(TraceWorkload.MPI_CALLS), policy);
        }
    }

    @Test
    void persistentRequestsAreRecordedAndReplayedExactly() throws Exception {
        Path exe = compile("persistent.c");
        Path out = dir.resolve("persistent.trace.jsonl");
        MpiRecorder.Result r = MpiRecorder.record(List.of("mpirun", "-n", "4", exe.toString()), out, cache);
        assertEquals(4, r.ranks());
        Trace t = Trace.read(out);
        long tally = 0;
        for (Map<String, Long> rank : t.header().mpiCalls()) {
            tally += rank.values().stream().mapToLong(Long::longValue).sum();
            // three rounds start both requests one at a time, three with one MPI_Startall
            assertEquals(Map.of("MPI_Send_init", 1L, "MPI_Recv_init", 1L, "MPI_Start", 6L, "MPI_Startall", 3L,
                    "MPI_Wait", 6L, "MPI_Waitall", 3L, "MPI_Request_free", 2L), rank);
        }
        assertEquals(r.calls(), tally);
        for (int rank = 0; rank < 4; rank++) {
            int me = rank;
            // every start posts the operation it was set up with: six sends of 32 KiB to the right, six receives
            List<TraceRecord> sends = t.records().stream().filter(x -> x.rank() == me && x.op() == TraceOp.SEND).toList();
            List<TraceRecord> receives = t.records().stream().filter(x -> x.rank() == me && x.op() == TraceOp.RECV)
                    .toList();
            assertEquals(6, sends.size(), "rank " + me);
            assertEquals(6, receives.size(), "rank " + me);
            assertTrue(sends.stream().allMatch(x -> x.len() == 32768 && x.peer() == (me + 1) % 4), sends.toString());
            assertTrue(receives.stream().allMatch(x -> x.len() == 32768 && x.peer() == (me + 3) % 4),
                    receives.toString());
        }
        for (String policy : List.of("cache-hooks", "odp-explicit")) {
            Map<String, Object> row = PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                    Map.of(TraceWorkload.TRACE, out.toString()), 1);
            assertEquals(true, row.get("verified"), policy + ": " + row);
            assertEquals(tally, row.get(TraceWorkload.MPI_CALLS), policy);
        }
    }

    @Test
    void aNonblockingCollectiveIsRefusedNamingTheCall() throws Exception {
        Path exe = compile("icollective.c");
        Path out = dir.resolve("icollective.trace.jsonl");
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache));
        assertEquals("rank 0 called MPI_Iallreduce, a nonblocking collective, which the replay cannot carry (it has"
                + " only blocking collectives); no trace written", e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void aProgramThatIsNotAnMpiProgramIsRefused() throws Exception {
        Path exe = compile("plain.c");
        Path out = dir.resolve("plain.trace.jsonl");
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache));
        assertTrue(e.getMessage().startsWith("the program never called MPI_Init: it is not an MPI program"), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void aStaticProgramIsRefusedWithTheReason() throws Exception {
        Path exe = compile("plain.c", "-static");
        Path out = dir.resolve("static.trace.jsonl");
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("mpirun", "-n", "1", exe.toString()), out, cache));
        assertEquals(exe + " is statically linked: the recorder library cannot be preloaded into it; link it"
                + " dynamically (the default of mpicc)", e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void aCrashIsTheProgramsFailureAndLeavesNoTrace() throws Exception {
        Path exe = compile("crash.c");
        Path out = dir.resolve("crash.trace.jsonl");
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache));
        assertTrue(e.getMessage().startsWith("the program failed: 'mpirun' exited with status "), e.getMessage());
        assertFalse(Files.exists(out));
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith(".crash")), "no temporary trace left");
        }
    }

    @Test
    void aMissingLauncherIsRefused() {
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("/nonexistent/mpirun", "-n", "2", "./app"), dir.resolve("x"), cache));
        assertEquals("'/nonexistent/mpirun' is not on the PATH; install Open MPI (Debian: apt-get install openmpi-bin)",
                e.getMessage());
    }
}
