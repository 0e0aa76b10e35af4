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
        // both ranks call it; the first to abort the job may stop the other before it does
        assertTrue(e.getMessage().matches("rank [01] called MPI_Iallreduce, a nonblocking collective, which the replay"
                + " cannot carry \\(it has only blocking collectives\\); no trace written"), e.getMessage());
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

    /** Per rank, the calls the trace's records count (a run of polls as its count) are the recorder's tally. */
    private static void assertEveryCallCounted(Trace t) {
        for (int rank = 0; rank < t.header().ranks(); rank++) {
            Map<String, Long> counted = new java.util.TreeMap<>();
            for (TraceRecord x : t.records()) {
                if (x.rank() == rank && x.call() != null) {
                    counted.merge(x.call(), x.mpi().count(), Long::sum);
                }
            }
            assertEquals(new java.util.TreeMap<>(t.header().mpiCalls().get(rank)), counted, "rank " + rank);
        }
    }

    private static List<TraceRecord> of(Trace t, int rank, TraceOp op) {
        return t.records().stream().filter(x -> x.rank() == rank && x.op() == op).toList();
    }

    @Test
    void receivesCarryTheTagAndSourceTheirStatusReported() throws Exception {
        Path exe = compile("tags.c");
        Path out = dir.resolve("tags.trace.jsonl");
        MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache);
        Trace t = Trace.read(out);
        List<TraceRecord> sends = of(t, 0, TraceOp.SEND);
        assertEquals(List.of(1, 2), sends.stream().map(x -> x.mpi().tag()).toList());
        assertEquals(List.of(64L, 65536L), sends.stream().map(TraceRecord::len).toList());
        assertEquals(List.of(1L, 2L), sends.stream().map(x -> x.mpi().request()).toList());
        List<TraceRecord> receives = of(t, 1, TraceOp.RECV);
        // the second receive was posted with MPI_ANY_SOURCE and MPI_ANY_TAG
        assertEquals(List.of(2, 1), receives.stream().map(x -> x.mpi().tag()).toList());
        assertEquals(List.of(0, 0), receives.stream().map(TraceRecord::peer).toList());
        assertEquals(List.of(65536L, 64L), receives.stream().map(TraceRecord::len).toList());
        assertTrue(receives.stream().noneMatch(x -> x.mpi().hasRequest()), "blocking receives name no request");
        List<TraceRecord> waits = of(t, 0, TraceOp.WAIT);
        assertEquals(List.of(1L, 2L), waits.stream().map(x -> x.mpi().request()).toList(),
                "MPI_Waitall's waits name the requests it completed");
        assertEveryCallCounted(t);
        assertReplays(out, t);
    }

    /** The trace replays under two policies with every call performed and every byte verified. */
    private static void assertReplays(Path out, Trace t) {
        long tally = t.header().mpiCalls().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
        for (String policy : List.of("cache-hooks", "odp-explicit")) {
            Map<String, Object> row = PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                    Map.of(TraceWorkload.TRACE, out.toString()), 1);
            assertEquals(true, row.get("verified"), policy + ": " + row);
            assertEquals(tally, row.get(TraceWorkload.MPI_CALLS), policy);
        }
    }

    @Test
    void aHundredThousandFailedPollsAreOneRecord() throws Exception {
        Path exe = compile("polls.c");
        Path out = dir.resolve("polls.trace.jsonl");
        MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache);
        long lines;
        try (var l = Files.lines(out)) {
            lines = l.count();
        }
        assertTrue(lines < 30, lines + " lines:\n" + Files.readString(out));
        Trace t = Trace.read(out);
        assertEquals(100000L, t.header().mpiCalls().get(1).get("MPI_Testany"));
        assertEquals(1000L, t.header().mpiCalls().get(1).get("MPI_Iprobe"));
        List<TraceRecord> polls = of(t, 1, TraceOp.MPI);
        assertEquals(List.of("MPI_Testany", "MPI_Iprobe"), polls.stream().map(TraceRecord::call).toList());
        assertEquals(List.of(100000L, 1000L), polls.stream().map(x -> x.mpi().count()).toList());
        assertTrue(polls.getFirst().durationPs() > 0, "the time the polls took");
        assertEveryCallCounted(t);
        // rank 0: MPI_Recv, MPI_Send; rank 1: MPI_Irecv, the polls, MPI_Send, MPI_Waitany
        assertEquals(2 + 101003L, t.header().mpiCalls().stream().flatMap(m -> m.values().stream())
                .mapToLong(Long::longValue).sum());
        assertReplays(out, t);
    }

    @Test
    void messagesOfNoElementsAtNullAreSendsAndReceives() throws Exception {
        Path exe = compile("zero.c");
        Path out = dir.resolve("zero.trace.jsonl");
        MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache);
        Trace t = Trace.read(out);
        List<TraceRecord> sends = of(t, 0, TraceOp.SEND);
        List<TraceRecord> receives = of(t, 1, TraceOp.RECV);
        assertEquals(List.of(0L, 0L), sends.stream().map(TraceRecord::len).toList());
        assertEquals(List.of(0L, 0L), receives.stream().map(TraceRecord::len).toList());
        assertEquals(List.of(3, 4), sends.stream().map(x -> x.mpi().tag()).toList());
        assertEquals(List.of(3, 4), receives.stream().map(x -> x.mpi().tag()).toList());
        assertTrue(receives.stream().allMatch(x -> x.addr() == 0 && x.peer() == 0), receives.toString());
        assertEveryCallCounted(t);
        assertReplays(out, t);
    }

    @Test
    void probesMatchedReceivesAndACancelledReceive() throws Exception {
        Path exe = compile("probes.c");
        Path out = dir.resolve("probes.trace.jsonl");
        MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache);
        Trace t = Trace.read(out);
        List<TraceRecord> receives = of(t, 1, TraceOp.RECV);
        assertEquals(List.of("MPI_Recv", "MPI_Mrecv", "MPI_Imrecv"), receives.stream().map(TraceRecord::call).toList());
        assertEquals(List.of(7, 8, 9), receives.stream().map(x -> x.mpi().tag()).toList());
        assertEquals(List.of(8000L, 16000L, 24000L), receives.stream().map(TraceRecord::len).toList());
        assertTrue(receives.stream().allMatch(x -> x.peer() == 0), receives.toString());
        // the cancelled receive of tag 99 and its wait move nothing, and are still counted
        Map<String, Long> tally = t.header().mpiCalls().get(1);
        assertEquals(1L, tally.get("MPI_Cancel"));
        assertEquals(1L, tally.get("MPI_Irecv"));
        assertTrue(of(t, 1, TraceOp.MPI).stream().anyMatch(x -> "MPI_Irecv".equals(x.call())));
        assertEveryCallCounted(t);
        assertReplays(out, t);
    }

    @Test
    void blocksNoMessageLiesInAreLeftOut() throws Exception {
        Path exe = compile("churn.c");
        Path out = dir.resolve("churn.trace.jsonl");
        MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString()), out, cache);
        assertTrue(Files.size(out) < 5 << 20, Files.size(out) + " bytes");
        Trace t = Trace.read(out);
        for (int rank = 0; rank < 2; rank++) {
            // the message buffer's malloc and free; none of the 620000 temporaries
            assertEquals(1, of(t, rank, TraceOp.MALLOC).size(), "rank " + rank);
            assertEquals(1, of(t, rank, TraceOp.FREE).size(), "rank " + rank);
        }
        assertReplays(out, t);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "file|MPI_File_open, MPI-IO, which the replay cannot carry",
        "thread|MPI_Init_thread with MPI_THREAD_MULTIPLE: threads calling MPI at once",
        "spawn|MPI_Comm_spawn, dynamic processes, which the replay cannot carry",
        "fetch|MPI_Fetch_and_op, an atomic one-sided operation, which the replay cannot carry",
        "rput|MPI_Rput, a request-based one-sided operation, which the replay cannot carry",
        "pscw|MPI_Win_post, post-start-complete-wait synchronisation, which the replay cannot carry"})
    void aCallTheReplayCannotCarryStopsTheJobWhereItIsMade(String family, String said) throws Exception {
        Path exe = dir.resolve("refused");
        if (!Files.exists(exe)) {
            compile("refused.c");
        }
        Path out = dir.resolve("refused-" + family + ".trace.jsonl");
        long start = System.nanoTime();
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("mpirun", "-n", "2", exe.toString(), family), out, cache));
        assertTrue(e.getMessage().matches("rank [01] called \\Q" + said + "\\E.*; no trace written"), e.getMessage());
        // the program sleeps a minute after the call: the job was stopped at the call
        assertTrue(System.nanoTime() - start < 40_000_000_000L, "refused promptly");
        assertFalse(Files.exists(out));
    }

    @Test
    void aProgramTheLauncherCannotFindIsSaidSo() {
        Path missing = dir.resolve("no-such-program");
        RecordingRefused e = assertThrows(RecordingRefused.class,
                () -> MpiRecorder.record(List.of("mpirun", "-n", "1", missing.toString()), dir.resolve("m.jsonl"), cache));
        assertEquals("the program '" + missing + "' was not found: 'mpirun' could not start it; no trace written",
                e.getMessage());
    }
}
