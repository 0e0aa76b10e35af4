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

    /** Rank 0 sends tag 1 (64 B) then tag 2 (64 KiB); rank 1 receives tag 2 first, then tag 1. */
    private Path tagsOutOfOrder() throws IOException {
        Path f = dir.resolve("tags.trace.jsonl");
        String tally = "[{\"MPI_Send\":2},{\"MPI_Recv\":2}]";
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":2,\"segment_bytes\":4096,"
                + "\"mpi_calls\":" + tally + "}\n"
                + "{\"rank\":0,\"op\":\"mmap\",\"addr\":268435456,\"len\":131072}\n"
                + "{\"rank\":0,\"op\":\"send\",\"call\":\"MPI_Send\",\"addr\":268435456,\"len\":64,\"peer\":1,\"tag\":1}\n"
                + "{\"rank\":0,\"op\":\"send\",\"call\":\"MPI_Send\",\"addr\":268500992,\"len\":65536,\"peer\":1,\"tag\":2,"
                + "\"req\":1}\n"
                + "{\"rank\":0,\"op\":\"wait\",\"queue\":\"send\",\"req\":1}\n"
                + "{\"rank\":1,\"op\":\"mmap\",\"addr\":268435456,\"len\":131072}\n"
                + "{\"rank\":1,\"op\":\"recv\",\"call\":\"MPI_Recv\",\"addr\":268435456,\"len\":65536,\"peer\":0,\"tag\":2,"
                + "\"req\":1}\n"
                + "{\"rank\":1,\"op\":\"wait\",\"queue\":\"recv\",\"req\":1}\n"
                + "{\"rank\":1,\"op\":\"recv\",\"call\":\"MPI_Recv\",\"addr\":268500992,\"len\":64,\"peer\":0,\"tag\":1,"
                + "\"req\":2}\n"
                + "{\"rank\":1,\"op\":\"wait\",\"queue\":\"recv\",\"req\":2}\n");
        return f;
    }

    @Test
    void receivesMatchByTagNotByTheOrderTheyWerePosted() throws IOException {
        Path t = tagsOutOfOrder();
        for (String policy : new String[] {"cache-hooks", "cache-mmu", "odp-explicit", "bounce", "rendezvous-unpin", "odp-implicit", "openmx-pin", "openmx-cache"}) {
            Map<String, Object> row = replay(t, policy);
            assertEquals(true, row.get("verified"), policy + ": " + row);
            assertEquals(0L, row.get(TraceWorkload.CORRUPTED), policy + ": " + row);
            assertEquals(4L, row.get(TraceWorkload.MPI_CALLS), policy + ": " + row);
        }
    }

    @Test
    void aMessageTooLongForItsReceiveDoesNotVerify() throws IOException {
        Path f = dir.resolve("truncate.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":2,\"segment_bytes\":65536}\n"
                + "{\"rank\":0,\"op\":\"send\",\"addr\":0,\"len\":100,\"peer\":1,\"tag\":3}\n"
                + "{\"rank\":1,\"op\":\"recv\",\"addr\":0,\"len\":50,\"peer\":0,\"tag\":3}\n"
                + "{\"rank\":1,\"op\":\"wait\",\"queue\":\"recv\"}\n");
        Map<String, Object> row = replay(f, "cache-hooks");
        assertEquals(false, row.get("verified"), row.toString());
        assertEquals("1 receives met a message longer than their buffer (MPI_ERR_TRUNCATE)", row.get("reason"));
    }

    @Test
    void zeroLengthMessagesAtNoBufferReplay() throws IOException {
        Path f = dir.resolve("empty.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":2,\"segment_bytes\":4096}\n"
                + "{\"rank\":0,\"op\":\"send\",\"call\":\"MPI_Send\",\"addr\":0,\"len\":0,\"peer\":1}\n"
                + "{\"rank\":1,\"op\":\"recv\",\"call\":\"MPI_Recv\",\"addr\":0,\"len\":0,\"peer\":0}\n"
                + "{\"rank\":1,\"op\":\"wait\",\"queue\":\"recv\"}\n");
        Map<String, Object> row = replay(f, "cache-hooks");
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(1L, row.get(TraceWorkload.COMPLETIONS), row.toString());
    }

    @Test
    void aRecordedTraceMissingARanksRecordsIsRefusedWhenRead() throws IOException {
        Path f = dir.resolve("missing.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":2,"
                + "\"mpi_calls\":[{\"MPI_Send\":1},{\"MPI_Recv\":1}]}\n"
                + "{\"rank\":0,\"op\":\"send\",\"call\":\"MPI_Send\",\"addr\":0,\"len\":8,\"peer\":1}\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(f));
        assertTrue(e.getMessage().contains("field 'ranks': 2 ranks, but rank 1 has no records"), e.getMessage());
    }

    @Test
    void pollsThatFoundNothingCountEveryCallAndTakeTheirTime() throws IOException {
        Path f = dir.resolve("polls.trace.jsonl");
        Files.writeString(f, "{\"format\":\"pagefabric-trace\",\"version\":2,\"ranks\":2,"
                + "\"mpi_calls\":[{\"MPI_Testany\":100000},{\"MPI_Iprobe\":3}]}\n"
                + "{\"rank\":0,\"op\":\"mpi\",\"call\":\"MPI_Testany\",\"count\":100000,\"duration\":250000}\n"
                + "{\"rank\":1,\"op\":\"mpi\",\"call\":\"MPI_Iprobe\",\"count\":3,\"duration\":10}\n");
        Map<String, Object> row = replay(f, "cache-hooks");
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(100003L, row.get(TraceWorkload.MPI_CALLS), row.toString());
        assertTrue((double) row.get("simulated_us") >= 250.0, row.toString());
    }
}
