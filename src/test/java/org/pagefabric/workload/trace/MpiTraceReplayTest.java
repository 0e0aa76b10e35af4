package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;

/** Version 2 traces written by hand: collectives expanded, communicators, and the call tally. */
class MpiTraceReplayTest {
    @TempDir
    Path dir;

    private Path trace(String tally, String... records) throws IOException {
        Path f = dir.resolve("t" + System.nanoTime() + ".trace.jsonl");
        String header = "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":4,\"segment_bytes\":65536"
                + (tally == null ? "" : ",\"mpi_calls\":" + tally) + "}\n";
        Files.writeString(f, header + String.join("\n", records) + "\n");
        return f;
    }

    private static Map<String, Object> replay(Path trace, String policy) {
        return PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                Map.of(TraceWorkload.TRACE, trace.toString()), 1);
    }

    /** Per rank: a 64 KiB mapping, an allreduce on the world, a split, an alltoallv on the pair. */
    private static String[] program() {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < 4; r++) {
            long base = 0x10000000L;
            int[] pair = r < 2 ? new int[] {0, 1} : new int[] {2, 3};
            b.append("{\"rank\":").append(r).append(",\"op\":\"mmap\",\"addr\":").append(base).append(",\"len\":65536}\n");
            b.append("{\"rank\":").append(r).append(",\"op\":\"collective\",\"call\":\"MPI_Allreduce\",\"coll\":\"allreduce\","
                    + "\"comm\":0,\"addr\":").append(base).append(",\"recv_addr\":").append(base + 24576).append(",\"len\":20000}\n");
            b.append("{\"rank\":").append(r).append(",\"op\":\"comm\",\"call\":\"MPI_Comm_split\",\"comm\":").append(r < 2 ? 2 : 3)
                    .append(",\"members\":[").append(pair[0]).append(",").append(pair[1]).append("]}\n");
            b.append("{\"rank\":").append(r).append(",\"op\":\"collective\",\"call\":\"MPI_Alltoallv\",\"coll\":\"alltoallv\","
                    + "\"comm\":").append(r < 2 ? 2 : 3).append(",\"addr\":").append(base).append(",\"recv_addr\":")
                    .append(base + 49152).append(",\"len\":3000,\"blocks\":[3000,0,3000,0,3000,4096,3000,4096]}\n");
            b.append("{\"rank\":").append(r).append(",\"op\":\"collective\",\"call\":\"MPI_Bcast\",\"coll\":\"bcast\","
                    + "\"comm\":0,\"root\":2,\"addr\":").append(base).append(",\"recv_addr\":").append(base).append(",\"len\":100}\n");
        }
        return b.toString().strip().split("\n");
    }

    private static final String TALLY = "{\"MPI_Allreduce\":1,\"MPI_Comm_split\":1,\"MPI_Alltoallv\":1,\"MPI_Bcast\":1}";

    @Test
    void collectivesAreExpandedAndEveryCallIsPerformed() throws IOException {
        Path t = trace("[" + String.join(",", TALLY, TALLY, TALLY, TALLY) + "]", program());
        for (String policy : new String[] {"cache-hooks", "odp-explicit"}) {
            Map<String, Object> row = replay(t, policy);
            assertEquals(true, row.get("verified"), policy + ": " + row);
            assertEquals(16L, row.get(TraceWorkload.MPI_CALLS), row.toString());
            assertEquals(0L, row.get(TraceWorkload.CORRUPTED), row.toString());
            // allreduce of 20000 B on 4 ranks (reduce-scatter + allgather: 6 messages a rank), the
            // alltoallv on a pair (1), the broadcast of 100 B (binomial: 3 messages): 4*6+4*1+3 = 31 receives
            assertEquals(2 * 31L, row.get(TraceWorkload.COMPLETIONS), row.toString());
        }
    }

    @Test
    void aReplayThatMissesACallOfTheTallyDoesNotVerify() throws IOException {
        String more = "{\"MPI_Allreduce\":2,\"MPI_Comm_split\":1,\"MPI_Alltoallv\":1,\"MPI_Bcast\":1}";
        Path t = trace("[" + String.join(",", TALLY, TALLY, more, TALLY) + "]", program());
        Map<String, Object> row = replay(t, "cache-hooks");
        assertEquals(false, row.get("verified"));
        assertEquals("rank 2 performed 1 MPI_Allreduce, the program made 2 (the recorder's tally)", row.get("reason"));
    }

    @Test
    void mpiRecordsNeedVersion2() throws IOException {
        Path f = dir.resolve("v1.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":1,\"ranks\":2}\n"
                + "{\"rank\":0,\"op\":\"mpi\",\"call\":\"MPI_Test\"}\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(f));
        assertTrue(e.getMessage().contains(":2: field 'op': mpi needs \"version\": 2"), e.getMessage());
    }

    @Test
    void aCollectiveOnAnUnknownCommunicatorIsRefused() throws IOException {
        Path t = trace(null, "{\"rank\":0,\"op\":\"mmap\",\"addr\":268435456,\"len\":65536}",
                "{\"rank\":0,\"op\":\"collective\",\"coll\":\"barrier\",\"comm\":7}");
        Exception e = assertThrows(RuntimeException.class, () -> replay(t, "cache-hooks"));
        assertTrue(e.getMessage().contains("communicator 7 has no comm record before it"), e.getMessage());
    }

    @Test
    void aCollectiveInFileOrderIsRefused() throws IOException {
        Path f = dir.resolve("file-order.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":2,\"order\":\"file\"}\n"
                + "{\"rank\":0,\"op\":\"collective\",\"coll\":\"barrier\",\"comm\":0}\n"
                + "{\"rank\":1,\"op\":\"collective\",\"coll\":\"barrier\",\"comm\":0}\n");
        Exception e = assertThrows(RuntimeException.class, () -> replay(f, "cache-hooks"));
        assertTrue(e.getMessage().contains("a collective needs \"order\": \"rank\""), e.getMessage());
    }

    @Test
    void writtenAndReadBackTheSame() throws IOException {
        Path t = trace("[" + String.join(",", TALLY, TALLY, TALLY, TALLY) + "]", program());
        Trace read = Trace.read(t);
        java.io.StringWriter w = new java.io.StringWriter();
        TraceWriter.write(w, read.header(), read.records());
        Path again = dir.resolve("again.trace.jsonl");
        Files.writeString(again, w.toString());
        Trace back = Trace.read(again);
        assertEquals(read.records().size(), back.records().size());
        assertEquals(read.header().mpiCalls(), back.header().mpiCalls());
        for (int i = 0; i < read.records().size(); i++) {
            TraceRecord a = read.records().get(i);
            TraceRecord b = back.records().get(i);
            assertEquals(a.op(), b.op());
            assertEquals(a.call(), b.call());
            assertEquals(a.len(), b.len());
            if (a.mpi() != null) {
                assertEquals(a.mpi().coll(), b.mpi().coll());
                assertEquals(a.mpi().root(), b.mpi().root());
                assertEquals(a.mpi().recvAddr(), b.mpi().recvAddr());
                assertTrue(java.util.Arrays.equals(a.mpi().blocks(), b.mpi().blocks()));
                assertTrue(java.util.Arrays.equals(a.mpi().members(), b.mpi().members()));
            }
        }
    }
}
