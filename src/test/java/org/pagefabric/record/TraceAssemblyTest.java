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

    private RankLog log(String name, String... lines) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, String.join("\n", lines) + "\n");
        return RankLog.read(f);
    }

    /**
     * Rank 0 sends from the heap (blocking), receives from any source and waits, then both ranks
     * allreduce from the stack; rank 1 receives (blocking) into static data and sends back.
     */
    private List<RankLog> twoRanks() throws IOException {
        RankLog r0 = log("pid-10.log",
                "H 10", "m 5500 10", "I 1000 0 2",
                "m 556000 1000", "m 557000 20", "f 557000",
                "S 5000 6000 MPI_Send 0 0 556000 100 1",
                "V 9000 9100 MPI_Irecv 1 0 556400 400 -2",
                "D 9100 20000 MPI_Wait 1 1 1",
                "C 30000 40000 MPI_Allreduce 0 0 7ffd0010 7ffd1010 100 0",
                "f 5500",
                "T MPI_Send 1", "T MPI_Irecv 1", "T MPI_Wait 1", "T MPI_Allreduce 1", "Z 50000");
        RankLog r1 = log("pid-11.log",
                "H 11", "I 1000 1 2",
                "V 2000 8000 MPI_Recv 0 0 601000 100 0",
                "S 8100 8200 MPI_Isend 2 0 601000 300 0",
                "D 8300 9000 MPI_Wait 1 2 -1",
                "C 30000 40000 MPI_Allreduce 0 0 7ffe0010 7ffe1010 100 0",
                "T MPI_Recv 1", "T MPI_Isend 1", "T MPI_Wait 1", "T MPI_Allreduce 1", "Z 50000");
        return List.of(r0, r1);
    }

    @Test
    void eachLineBecomesItsRecords() throws IOException {
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
                // memory from MPI_Init's return only: the block from before it is neither malloc'd nor freed
                "malloc", "malloc", "free",
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
    void theAssembledTraceReplaysEveryCallWithEveryByteVerified() throws IOException {
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
    void aMessageToItselfOrToNobodyMovesNothing() throws IOException {
        RankLog r0 = log("pid-20.log", "I 1 0 2",
                "S 10 20 MPI_Send 0 0 556000 100 0",
                "S 30 40 MPI_Send 0 0 556000 100 -1",
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
}
