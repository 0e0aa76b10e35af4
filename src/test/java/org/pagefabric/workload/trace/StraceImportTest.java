package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading strace logs into trace records. */
class StraceImportTest {
    private static final String LOG = """
            100 10:00:00.000000 brk(NULL)         = 0x555555560000
            100 10:00:00.000010 mmap(NULL, 8192, PROT_READ, MAP_PRIVATE|MAP_DENYWRITE, 3, 0) = 0x7f0000100000
            100 10:00:00.000020 mmap(NULL, 1052672, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000200000
            101 10:00:00.000025 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000900000
            100 10:00:00.000030 mremap(0x7f0000200000, 1052672, 4198400, MREMAP_MAYMOVE <unfinished ...>
            101 10:00:00.000031 mprotect(0x7f0000900000, 4096, PROT_READ) = 0
            100 10:00:00.000032 <... mremap resumed>) = 0x7f0001000000
            100 10:00:00.000040 madvise(0x7f0001000000, 8192, MADV_DONTNEED) = 0
            100 10:00:00.000041 madvise(0x7f0001000000, 8192, MADV_WILLNEED) = 0
            100 10:00:00.000050 munmap(0x7f00000ff000, 0x2000) = 0
            100 10:00:00.000060 brk(0x555555581000) = 0x555555581000
            100 10:00:00.000061 brk(0x7fffffffffff) = -1 ENOMEM (Cannot allocate memory)
            100 10:00:00.000070 munmap(0x7f0001000000, 4198400) = 0
            100 10:00:00.000080 +++ exited with 0 +++
            """;

    private static List<TraceRecord> read(String log, long pid, StraceImport.CommPattern comm) throws IOException {
        return StraceImport.read("test.strace", new StringReader(log), 0, comm, pid);
    }

    @Test
    void anonymousMemoryAndTheBreakBecomeRecords() throws IOException {
        List<TraceRecord> r = read(LOG, StraceImport.BUSIEST_PID, null);
        List<TraceOp> ops = r.stream().map(TraceRecord::op).toList();
        // the file mapping, the other process's mmap, mprotect, MADV_WILLNEED, the failed brk and the
        // munmap of file-backed memory are left out
        assertEquals(List.of(TraceOp.BRK, TraceOp.MMAP, TraceOp.MREMAP, TraceOp.MADVISE, TraceOp.BRK, TraceOp.MUNMAP),
                ops);
        TraceRecord remap = r.get(2);
        assertEquals(0x7f0000200000L, remap.addr());
        assertEquals(1052672, remap.len());
        assertEquals(0x7f0001000000L, remap.newAddr());
        assertEquals(4198400, remap.newLen());
        assertEquals(30_000_000L, remap.atPs(), "30 us after the first call");
        assertEquals(0x555555581000L, r.get(4).addr());
        assertEquals(9, r.get(0).line() + 8, "records keep the log's line");
    }

    @Test
    void allProcessesTogetherOrOneByNumber() throws IOException {
        assertEquals(7, read(LOG, StraceImport.ALL_PIDS, null).size());
        List<TraceRecord> other = read(LOG, 101, null);
        assertEquals(1, other.size());
        assertEquals(0x7f0000900000L, other.get(0).addr());
        assertEquals(0, other.get(0).atPs(), "times count from the first call imported");
    }

    @Test
    void anUnmapIsClippedToTheAnonymousMemoryItTouches() throws IOException {
        String log = """
                7 10:00:00.000000 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000002000
                7 10:00:00.000001 munmap(0x7f0000000000, 16384) = 0
                """;
        List<TraceRecord> r = read(log, StraceImport.BUSIEST_PID, null);
        assertEquals(TraceOp.MUNMAP, r.get(1).op());
        assertEquals(0x7f0000002000L, r.get(1).addr());
        assertEquals(8192, r.get(1).len());
    }

    @Test
    void aNewProgramStartsOver() throws IOException {
        String log = """
                7 10:00:00.000000 brk(NULL) = 0x555500000000
                7 10:00:00.000001 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000002000
                7 10:00:00.000002 brk(NULL) = 0x555500000000
                7 10:00:00.000005 brk(NULL) = 0x566600000000
                7 10:00:00.000007 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000009000
                """;
        List<TraceRecord> r = read(log, StraceImport.BUSIEST_PID, null);
        assertEquals(List.of(TraceOp.BRK, TraceOp.MMAP), r.stream().map(TraceRecord::op).toList());
        assertEquals(0x566600000000L, r.get(0).addr());
        assertEquals(2_000_000L, r.get(1).atPs());
    }

    @Test
    void theCommunicationPatternFollowsEachMapping() throws IOException {
        List<TraceRecord> r = read(LOG, StraceImport.BUSIEST_PID,
                new StraceImport.CommPattern(TraceOp.PUT, 1, 65536, 0));
        List<TraceRecord> puts = r.stream().filter(x -> x.op() == TraceOp.PUT).toList();
        // after the mmap, the mremap and the heap's growth
        assertEquals(3, puts.size());
        assertEquals(0x7f0000200000L, puts.get(0).addr());
        assertEquals(65536, puts.get(0).len());
        assertEquals(1, puts.get(0).peer());
        assertEquals(0x555555560000L, puts.get(2).addr(), "from the start of the heap's new pages");
        assertEquals(3, r.stream().filter(x -> x.op() == TraceOp.WAIT && x.sendQueue()).count());
    }

    @Test
    void anUnreadableCallNamesTheLogLine() {
        String log = "7 10:00:00.000000 munmap(0x7f0000zz0000, 4096) = 0\n";
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> read(log, StraceImport.BUSIEST_PID, null));
        assertTrue(e.getMessage().startsWith("test.strace:1: munmap: '0x7f0000zz0000'"), e.getMessage());
    }
}
