package org.pagefabric.reg.odp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagefabric.reg.odp.OdpBed.PAGE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;

/**
 * Conformance of ODP under two-stage translation ({@code vm.nested}): RDMA writes into an ODP
 * region of a virtual machine while the guest kernel migrates its pages and the host reclaims
 * guest frames the NIC maps. After either kernel's invalidation completes, no NIC entry maps a
 * guest frame whose machine frame is gone or changed (no DMA uses the old machine frame), and
 * every write lands intact through nested faults (a host fault beneath the guest's). Without the
 * host-side notifier ({@code vm.host_notifier=false}) the same sequences leave such entries.
 */
class HostInvalidationConformanceTest {
    private static final int PAGES = 16;

    @ParameterizedTest
    @ValueSource(longs = {11, 22, 33, 44, 55, 66, 77, 88})
    void afterEitherKernelsInvalidationNoNicEntryUsesTheOldMachineFrame(long seed) {
        Result r = run(seed, true);
        assertEquals(List.of(), r.failures);
        assertTrue(r.hostReclaims > 0, "the host took frames the NIC mapped");
        assertTrue(r.hostFaults > 0, "nested faults backed them again");
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 22, 33, 44, 55, 66, 77, 88})
    void withoutTheHostNotifierTheNicKeepsTheOldMachineFrame(long seed) {
        Result r = run(seed, false);
        assertTrue(r.failures.stream().anyMatch(f -> f.contains("old machine frame")), String.valueOf(r.failures));
    }

    private record Result(List<String> failures, long hostReclaims, long hostFaults) {
    }

    private static Result run(long seed, boolean hostNotifier) {
        OdpBed bed = new OdpBed(seed, 2, PAGES * PAGE, OdpPolicy.EXPLICIT, Map.of("vm.nested", "true",
                "vm.host_notifier", String.valueOf(hostNotifier), "transport.rnr_delay", "5us",
                "transport.retry_limit", "100000"));
        Rank a = bed.rank(0);
        Rank b = bed.rank(1);
        HostStage host = b.node().hostStage();
        RandomStream rnd = new RandomStream(seed);
        long length = PAGES * PAGE;
        a.node().kernel().writeTag(a.process(), a.segment(), length, seed, 0);
        b.node().kernel().writeTag(b.process(), b.segment(), length, seed + 1, 0);
        List<String> failures = new ArrayList<>();
        boolean[] done = {false};
        long[] reclaims = {0};
        new SimProcess(bed.sim, a.node(), "writes", ctx -> {
            for (int i = 0; i < 30; i++) {
                long len = 1 + rnd.nextInt((int) (2 * PAGE));
                long from = rnd.nextInt((int) (length - len));
                long to = rnd.nextInt((int) (length - len));
                a.write(ctx, b, from, to, len, i);
                CompletionEntry wc = a.awaitSend(ctx);
                boolean same = digest(a, from, len) == digest(b, to, len);
                if (wc.status() != Outcome.SUCCESS || !same) {
                    failures.add("write " + i + ": " + wc.status() + " same=" + same);
                }
            }
            done[0] = true;
        }).start();
        new SimProcess(bed.sim, b.node(), "kernels", ctx -> {
            while (!done[0] && ctx.now() < 100 * Time.MS) {
                ctx.sleep((5 + rnd.nextInt(40)) * Time.US);
                long va = b.segment() + rnd.nextInt(PAGES) * PAGE;
                long gfn = b.process().physicalAddress(va) >>> 12;
                if (rnd.nextBoolean(0.5)) {
                    b.node().kernel().migrate(b.process(), va);
                    String stale = OdpBed.staleEntry(b.endpoint().segmentRegion(), b.process(), b.segment(), length);
                    if (stale != null) {
                        failures.add("after the guest's migration at " + ctx.now() + " ps: " + stale);
                    }
                } else if (mapped(b.endpoint().segmentRegion(), va) && host.reclaim(gfn)) {
                    reclaims[0]++;
                    if (mapped(b.endpoint().segmentRegion(), va)) {
                        failures.add("after the host's reclaim at " + ctx.now() + " ps the NIC still maps page 0x"
                                + Long.toHexString(va) + " to guest frame " + gfn + ", whose old machine frame is gone");
                    }
                }
            }
        }).start();
        bed.sim.run();
        return new Result(failures, reclaims[0], host.hostFaults());
    }

    private static boolean mapped(MemoryRegion mr, long va) {
        return (mr.table().get((va >>> 12) - mr.firstPage()) & Pte.PRESENT) != 0;
    }

    private static long digest(Rank r, long offset, long length) {
        return r.node().kernel().digest(r.process(), r.segment() + offset, length);
    }
}
