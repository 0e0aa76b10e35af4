package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.FaultKind;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Reads of a remote array through a paged global address space (002 §6.2, Fig. 10: a virtual
 * global address space whose remote pages are marked invalid and brought in on access) against
 * explicit RMA gets. Rank 1 is the home of an {@code array_KiB} array; rank 0 reads one 8-byte word
 * every {@code stride_B} bytes of it, {@code iterations} times over (repeated reads: the
 * locality a paged space exploits).
 *
 * <p>{@code access: get} reads each word with its own 8-byte RDMA read. {@code access: page}
 * reads it from rank 0's local view of the array, whose pages start invalid (no access in the
 * page table): the first access to a page faults, the handler fetches the whole page from its
 * home with one RDMA read into a staging page and maps it there, and later accesses to it are
 * local memory reads. The
 * handler's round trip is charged as a userfaultfd fault resolved by UFFDIO_COPY
 * ({@code os.userfaultfd.fault.copy}), the mechanism Linux offers user-level paging today.
 */
public final class GasReadWorkload extends AbstractWorkload {
    static final String ACCESS = "access";
    static final String STRIDE = "stride_B";
    static final String ARRAY = "array_KiB";
    static final String GET = "get";
    static final String PAGE = "page";
    private static final long TAG = 0x6A5_0000_0000_0000L;
    private static final long WORD = 8;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.integer(ARRAY, 64, "KiB", "size of the remote array", 4, 1L << 18),
            WorkloadParameter.integer(StandardParameters.ITERATIONS, 4, "", "passes over the array", 1, 1 << 16),
            WorkloadParameter.integer(STRIDE, 64, "B", "bytes between two words read in a pass (8: every word;"
                    + " 4096: one per page)", WORD, Kernel.PAGE_SIZE),
            WorkloadParameter.choice(ACCESS, PAGE, "get: an 8-byte RDMA read per word; page: reads of a local view"
                    + " whose invalid pages are fetched whole from their home on first access", List.of(GET, PAGE)));

    /** The workload with its declared metadata. */
    public GasReadWorkload() {
        super(WorkloadDescriptor.of("gas-read", "repeated reads of a remote array, by explicit gets or through a paged"
                + " global address space that fetches a page on its first access: latency per read")
                .parameters(PARAMETERS).check(GasReadWorkload::checkShape).lowerIsBetter("latency_us")
                .metrics(PointRun.metricsThen(List.of("reads", "remote_reads", "fetched_KiB")))
                // the array (home) or its local view (reader), and a staging page where gets land
                .segment(p -> p.longValue(ARRAY) * 1024 + Kernel.PAGE_SIZE)
                .requires(Capability.GET).build());
    }

    private static void checkShape(Params p) {
        long stride = p.longValue(STRIDE);
        if (p.longValue(ARRAY) * 1024 % Kernel.PAGE_SIZE != 0) {
            throw new IllegalArgumentException(ARRAY + " " + p.longValue(ARRAY) + " is not a whole number of "
                    + Kernel.PAGE_SIZE / 1024 + " KiB pages");
        }
        if (stride % WORD != 0 || Kernel.PAGE_SIZE % stride != 0) {
            throw new IllegalArgumentException(STRIDE + " " + stride + " must be a multiple of 8 that divides "
                    + Kernel.PAGE_SIZE);
        }
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        Rank reader = job.rank(0);
        Rank home = job.rank(1);
        long size = params.longValue(ARRAY) * 1024;
        long stride = params.longValue(STRIDE);
        int passes = StandardParameters.iterations(params);
        boolean paged = params.is(ACCESS, PAGE);
        long handlerPs = job.cluster().profile().time(OsParameters.USERFAULTFD_FAULT_COPY);
        long localReadPs = job.cluster().profile().time(OsParameters.TOUCH_PRESENT);
        DataCheck.fill(home, 0, size, TAG);
        ProcessMemory mem = reader.memory();
        long view = reader.segment();
        if (paged) {
            // every remote page starts invalid in the reader's page table
            mem.mprotect(view, size, Prot.NONE);
        }
        long[] counts = new long[3];
        byte[] buffer = new byte[(int) Kernel.PAGE_SIZE];
        boolean[] ok = {true};
        new SimProcess(job.simulator(), reader.node(), "reader", ctx -> {
            long wr = 0;
            for (int pass = 0; pass < passes && ok[0]; pass++) {
                for (long off = 0; off < size && ok[0]; off += stride) {
                    long t0 = ctx.now();
                    counts[0]++;
                    if (!paged) {
                        reader.read(ctx, home, off, size, WORD, wr++);
                        ok[0] &= done(reader.awaitSend(ctx))
                                && mem.verifyTag(view + size, WORD, TAG, off);
                        counts[1]++;
                    } else {
                        Fault f = mem.touch(view + off, false);
                        if (f.kind() == FaultKind.SEGV_ACCERR) {
                            long page = off & ~(Kernel.PAGE_SIZE - 1);
                            ctx.sleep(handlerPs);
                            reader.read(ctx, home, page, size, Kernel.PAGE_SIZE, wr++);
                            ok[0] &= done(reader.awaitSend(ctx));
                            map(mem, view + size, view + page, buffer);
                            f = mem.touch(view + off, false);
                            counts[1]++;
                            counts[2] += Kernel.PAGE_SIZE;
                        }
                        ok[0] &= f.resolved();
                        // a read that hits the mapped page: a TLB walk and a line from DRAM at most
                        ctx.sleep(f.costPs() + localReadPs);
                    }
                    latencies.record(ctx.now() - t0);
                }
            }
        }).start();
        long expected = (long) passes * (size / stride);
        return Run.of(() -> ok[0] && counts[0] == expected && (!paged || mem.verifyTag(view, size, TAG, 0)), () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("reads", counts[0]);
            m.put("remote_reads", counts[1]);
            m.put("fetched_KiB", counts[2] / 1024);
            return m;
        });
    }

    /**
     * Maps a fetched page as UFFDIO_COPY does: copies it from the handler's staging page into the
     * faulting page and makes that page readable. The copy and the mapping are part of the
     * handler's round trip ({@code os.userfaultfd.fault.copy}), so their kernel time is not
     * charged again.
     */
    private static void map(ProcessMemory mem, long staging, long page, byte[] buffer) {
        mem.read(staging, buffer, 0, buffer.length);
        mem.mprotect(page, Kernel.PAGE_SIZE, Prot.READ_WRITE);
        mem.write(page, buffer, 0, buffer.length);
        mem.mprotect(page, Kernel.PAGE_SIZE, Prot.READ);
    }

    private static boolean done(CompletionEntry wc) {
        return wc.status() == Outcome.SUCCESS;
    }
}
