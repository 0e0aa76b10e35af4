package org.pagefabric.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.trace.Trace;
import org.pagefabric.workload.trace.TraceOp;
import org.pagefabric.workload.trace.TraceRecord;
import org.pagefabric.workload.trace.TraceWorkload;
import org.pagefabric.workload.trace.TraceWriter;

/**
 * Interposer logs written by hand, in the line format of pfrec.c, merged into a trace: what each
 * kind of line becomes, without Open MPI on the machine.
 */
class TraceAssemblyTest {
    @TempDir
    Path dir;

    private RankLog log(String name, String... lines) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, String.join("\n", lines) + "\n");
        return RankLog.read(f);
    }

    /**
     * Rank 0 sends from the heap (blocking), receives from any source and waits, then both ranks
     * allreduce from the stack; rank 1 receives (blocking) into static data and sends back.
     */
    private List<RankLog> twoRanks() throws Exception {
        RankLog r0 = log("pid-10.log",
                "H 10", "m 5500 10", "I 1000 0 2",
                "m 556000 1000", "m 557000 20", "f 557000",
                "S 5000 6000 MPI_Send 0 0 556000 100 1 7",
                "V 9000 9100 MPI_Irecv 1 0 556400 400 -2 -1",
                "D 9100 20000 MPI_Wait 1 1 1 9 0",
                "C 30000 40000 MPI_Allreduce 0 0 7ffd0010 7ffd1010 100 0",
                "f 5500",
                "T MPI_Send 1", "T MPI_Irecv 1", "T MPI_Wait 1", "T MPI_Allreduce 1", "Z 50000");
        RankLog r1 = log("pid-11.log",
                "H 11", "I 1000 1 2",
                "V 2000 8000 MPI_Recv 0 0 601000 100 0 7",
                "S 8100 8200 MPI_Isend 2 0 601000 300 0 9",
                "D 8300 9000 MPI_Wait 1 2 -1 0 0",
                "C 30000 40000 MPI_Allreduce 0 0 7ffe0010 7ffe1010 100 0",
                "T MPI_Recv 1", "T MPI_Isend 1", "T MPI_Wait 1", "T MPI_Allreduce 1", "Z 50000");
        return List.of(r0, r1);
    }

    @Test
    void eachLineBecomesItsRecords() throws Exception {
        TraceAssembly.Assembled t = TraceAssembly.assemble(twoRanks(), "test");
        List<String> rank0 = new ArrayList<>();
        for (TraceRecord r : t.records()) {
            if (r.rank() == 0) {
                rank0.add(r.op().wireName() + (r.call() == null ? "" : " " + r.call())
                        + (r.op() == TraceOp.WAIT ? (r.sendQueue() ? " send" : " recv") : "")
                        + (r.op() == TraceOp.RECV ? " from " + r.peer() : "") + (r.hooked() ? "" : " unhooked"));
            }
        }
        assertEquals(List.of(
                // the stack the allreduce used, mapped first
                "mmap unhooked",
                // memory from MPI_Init's return only: the block from before it is neither malloc'd nor freed;
                // of the blocks after it, only the one MPI calls name
                "malloc",
                "compute", "send MPI_Send",
                "compute", "recv MPI_Irecv from 1",
                // the blocking send's wait comes after the next receive completes
                "wait MPI_Wait recv", "wait send",
                "compute", "collective MPI_Allreduce"), rank0);
        assertEquals(2, t.header().ranks());
        assertEquals(Map.of("MPI_Send", 1L, "MPI_Irecv", 1L, "MPI_Wait", 1L, "MPI_Allreduce", 1L),
                t.header().mpiCalls().get(0));
    }

    @Test
    void theAssembledTraceReplaysEveryCallWithEveryByteVerified() throws Exception {
        TraceAssembly.Assembled t = TraceAssembly.assemble(twoRanks(), "test");
        StringWriter w = new StringWriter();
        TraceWriter.write(w, t.header(), t.records());
        Path f = dir.resolve("two.trace.jsonl");
        Files.writeString(f, w.toString());
        Map<String, Object> row = PointRun.run(ProfileRegistry.load("default"), "cache-hooks", new TraceWorkload(),
                Map.of(TraceWorkload.TRACE, f.toString()), 1);
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(8L, row.get(TraceWorkload.MPI_CALLS));
    }

    @Test
    void aMessageToItselfOrToNobodyMovesNothing() throws Exception {
        RankLog r0 = log("pid-20.log", "I 1 0 2",
                "S 10 20 MPI_Send 0 0 556000 100 0 0",
                "S 30 40 MPI_Send 0 0 556000 100 -1 0",
                "T MPI_Send 2", "Z 50");
        RankLog r1 = log("pid-21.log", "I 1 1 2", "T MPI_Send 0", "Z 50");
        TraceAssembly.Assembled t = TraceAssembly.assemble(List.of(r0, r1), "test");
        List<TraceRecord> mine = t.records().stream().filter(r -> r.rank() == 0).toList();
        assertEquals(2, mine.size(), mine.toString());
        for (TraceRecord r : mine) {
            assertEquals(TraceOp.MPI, r.op());
            assertEquals("MPI_Send", r.call());
        }
        assertFalse(mine.stream().anyMatch(r -> r.op() == TraceOp.MMAP), "nothing sent, nothing to map");
        assertTrue(t.header().segmentBytes() >= 4096);
    }

    @Test
    void pointToPointRecordsCarryTheirEnvelopeAndRequest() throws Exception {
        TraceAssembly.Assembled t = TraceAssembly.assemble(twoRanks(), "test");
        TraceRecord send = only(t, 0, TraceOp.SEND);
        assertEquals(7, send.mpi().tag());
        assertEquals(0, send.mpi().comm());
        assertFalse(send.mpi().hasRequest(), "a blocking send names no request");
        // posted from any source with any tag: the completion's sender and tag
        TraceRecord recv = only(t, 0, TraceOp.RECV);
        assertEquals(1, recv.peer());
        assertEquals(9, recv.mpi().tag());
        assertEquals(1, recv.mpi().request());
        List<TraceRecord> waits = t.records().stream().filter(r -> r.rank() == 0 && r.op() == TraceOp.WAIT).toList();
        assertEquals(1, waits.getFirst().mpi().request(), "the wait names the receive's request");
        assertTrue(waits.get(1).mpi() == null || !waits.get(1).mpi().hasRequest(), "a blocking send's wait names none");
        TraceRecord isend = only(t, 1, TraceOp.SEND);
        assertEquals(9, isend.mpi().tag());
        assertEquals(2, isend.mpi().request());
        // the blocking receive's wait, then the nonblocking send's
        List<TraceRecord> waits1 = t.records().stream().filter(r -> r.rank() == 1 && r.op() == TraceOp.WAIT).toList();
        assertEquals(2, waits1.size(), waits1.toString());
        assertFalse(waits1.getFirst().mpi() != null && waits1.getFirst().mpi().hasRequest());
        assertEquals(2, waits1.get(1).mpi().request());
    }

    @Test
    void aRunOfPollsIsOneRecordWithItsCountAndTime() throws Exception {
        RankLog r0 = log("pid-30.log", "I 1000 0 2",
                "V 2000 2100 MPI_Irecv 1 0 556000 100 1 4",
                "E 3000 903000 MPI_Testany 100000",
                "E 903100 904000 MPI_Iprobe 5",
                "D 905000 906000 MPI_Testany 1 1 1 4 0",
                "T MPI_Irecv 1", "T MPI_Testany 100001", "T MPI_Iprobe 5", "Z 907000");
        RankLog r1 = log("pid-31.log", "I 1000 1 2", "S 2000 2100 MPI_Send 0 0 557000 100 0 4", "T MPI_Send 1",
                "Z 907000");
        TraceAssembly.Assembled t = TraceAssembly.assemble(List.of(r0, r1), "test");
        List<TraceRecord> polls = t.records().stream().filter(r -> r.op() == TraceOp.MPI).toList();
        assertEquals(2, polls.size(), polls.toString());
        assertEquals("MPI_Testany", polls.getFirst().call());
        assertEquals(100000, polls.getFirst().mpi().count());
        assertEquals(900_000_000L, polls.getFirst().durationPs(), "the run's span, picoseconds");
        assertEquals(5, polls.get(1).mpi().count());
        StringWriter w = new StringWriter();
        TraceWriter.write(w, t.header(), t.records());
        Path f = dir.resolve("polls.trace.jsonl");
        Files.writeString(f, w.toString());
        Trace back = Trace.read(f);
        assertEquals(100000, back.records().stream().filter(r -> "MPI_Testany".equals(r.call()) && r.op() == TraceOp.MPI)
                .findFirst().orElseThrow().mpi().count());
    }

    @Test
    void blocksNoMpiCallNamesAreLeftOutAndMappingsKept() throws Exception {
        RankLog r0 = log("pid-40.log", "I 1000 0 2",
                // churn: never named
                "m 600000 40", "f 600000", "m 600000 40", "f 600000",
                // named while it lives, by a buffer inside it
                "m 610000 1000",
                "S 2000 2100 MPI_Send 0 0 610100 10 1 0",
                // an unnamed block that lives across the send
                "m 620000 10", "S 3000 3100 MPI_Send 0 0 610100 10 1 0", "f 620000",
                "f 610000",
                // the same address again, never named: a new block, left out
                "m 610000 1000", "f 610000",
                "M 7f0000000000 200000", "U 7f0000000000 200000",
                "T MPI_Send 2", "Z 5000");
        RankLog r1 = log("pid-41.log", "I 1000 1 2", "V 2000 2100 MPI_Recv 0 0 700000 10 0 0",
                "V 3000 3100 MPI_Recv 0 0 700000 10 0 0", "T MPI_Recv 2", "Z 5000");
        TraceAssembly.Assembled t = TraceAssembly.assemble(List.of(r0, r1), "test");
        List<String> memory = t.records().stream().filter(r -> r.rank() == 0 && r.op().memory())
                .map(r -> r.op().wireName() + " " + Long.toHexString(r.addr())).toList();
        assertEquals(List.of("malloc 610000", "free 610000", "mmap 7f0000000000", "munmap 7f0000000000"), memory);
    }

    @Test
    void aCancelledReceiveIsNoReceiveAndItsWaitStillCounts() throws Exception {
        RankLog r0 = log("pid-50.log", "I 1000 0 2",
                "V 2000 2100 MPI_Irecv 1 0 556000 100 -2 99",
                "N 2200 2300 MPI_Cancel",
                "D 2400 2500 MPI_Wait 1 1 -1 99 1",
                "T MPI_Irecv 1", "T MPI_Cancel 1", "T MPI_Wait 1", "Z 3000");
        RankLog r1 = log("pid-51.log", "I 1000 1 2", "Z 3000");
        TraceAssembly.Assembled t = TraceAssembly.assemble(List.of(r0, r1), "test");
        List<String> mine = t.records().stream().filter(r -> r.rank() == 0 && r.op() != TraceOp.COMPUTE
                && r.op() != TraceOp.MMAP).map(r -> r.op().wireName() + " " + r.call()).toList();
        assertEquals(List.of("mpi MPI_Irecv", "mpi MPI_Cancel", "mpi MPI_Wait"), mine);
    }

    @Test
    void aMessageOfNoBytesIsASendAndAReceive() throws Exception {
        RankLog r0 = log("pid-60.log", "I 1000 0 2", "S 2000 2100 MPI_Send 0 0 0 0 1 5", "T MPI_Send 1", "Z 3000");
        RankLog r1 = log("pid-61.log", "I 1000 1 2", "V 2000 2100 MPI_Recv 0 0 7ffd0000 0 0 5", "T MPI_Recv 1",
                "Z 3000");
        TraceAssembly.Assembled t = TraceAssembly.assemble(List.of(r0, r1), "test");
        TraceRecord send = only(t, 0, TraceOp.SEND);
        TraceRecord recv = only(t, 1, TraceOp.RECV);
        assertEquals(0, send.len());
        assertEquals(0, recv.len());
        assertEquals(0, recv.addr(), "no bytes, no buffer");
        assertEquals(5, recv.mpi().tag());
        StringWriter w = new StringWriter();
        TraceWriter.write(w, t.header(), t.records());
        Path f = dir.resolve("zero.trace.jsonl");
        Files.writeString(f, w.toString());
        assertEquals(0, Trace.read(f).records().stream().filter(r -> r.op() == TraceOp.SEND).findFirst().orElseThrow()
                .len());
    }

    @Test
    void aSendOnACommunicatorMadeOutOfSightIsRefused() throws Exception {
        RankLog r0 = log("pid-70.log", "I 1000 0 2", "S 2000 2100 MPI_Send 0 5 556000 8 1 0", "T MPI_Send 1",
                "Z 3000");
        RankLog r1 = log("pid-71.log", "I 1000 1 2", "Z 3000");
        RecordingRefused e = org.junit.jupiter.api.Assertions.assertThrows(RecordingRefused.class,
                () -> TraceAssembly.assemble(List.of(r0, r1), "test"));
        assertTrue(e.getMessage().startsWith("rank 0 called MPI_Send on a communicator made by a call the recorder"
                + " does not follow"), e.getMessage());
    }

    private static TraceRecord only(TraceAssembly.Assembled t, int rank, TraceOp op) {
        List<TraceRecord> r = t.records().stream().filter(x -> x.rank() == rank && x.op() == op).toList();
        assertEquals(1, r.size(), r.toString());
        return r.getFirst();
    }
}
