package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * Every policy that offers on-demand paging stays coherent when the kernel batches its unmaps:
 * after reclaim and NUMA migration move rank 1's pages with one MMU-notifier range for many pages
 * ({@code os.unmap_batch}), with the NIC's accessed bits reported or not, a put to those pages
 * lands in the frames the process maps now and carries the source's bytes.
 */
class OnDemandPagingConformanceTest {
    private static final long SEGMENT = 64 * Kernel.PAGE_SIZE;

    static Stream<String> policies() {
        PolicyRegistry r = PolicyRegistry.standard();
        return r.names().stream().filter(n -> r.descriptor(n).capabilities().contains(Capability.ON_DEMAND_PAGING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void putsAfterBatchedReclaimAndMigrationLandIntact(String name) {
        for (String bits : new String[] {"false", "true"}) {
            PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
            Profile p = Conformance.profileFor(d).withOverrides(Map.of("os.unmap_batch", "16", "memory.size", "32MiB",
                    "os.swap.size", "32MiB", "odp.access_bits", bits), "conformance test");
            Simulator sim = new Simulator(3);
            Job job = new Job(sim, p, 2, SEGMENT, d.factory().apply(p));
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Kernel k = b.node().kernel();
            boolean[] ok = {true};
            new SimProcess(sim, a.node(), "puts", ctx -> {
                for (int round = 0; round < 3; round++) {
                    a.node().kernel().writeTag(a.process(), a.segment(), SEGMENT, 40 + round, 0);
                    a.write(ctx, b, 0, 0, SEGMENT, round);
                    ok[0] &= a.awaitSend(ctx).status() == Outcome.SUCCESS
                            && k.verifyTag(b.process(), b.segment(), SEGMENT, 40 + round, 0);
                    k.reclaim(SEGMENT / Kernel.PAGE_SIZE / 2);
                    k.migrateRange(b.process(), b.segment(), (int) (SEGMENT / Kernel.PAGE_SIZE));
                }
            }).start();
            sim.run();
            assertTrue(ok[0], name + " (access bits " + bits + "): a put after batched invalidations lost data");
            assertTrue(k.stats().reclaimed() > 0 && k.stats().migrations() > 0, "the kernel moved pages");
            assertEquals(0, b.process().pinnedPages(), name + " pinned nothing");
        }
    }
}
