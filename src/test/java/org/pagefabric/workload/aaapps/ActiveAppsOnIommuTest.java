package org.pagefabric.workload.aaapps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.active.Actions;
import org.pagefabric.active.ActiveAccess;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * The applications' mechanisms on the real NIC and extended IOMMU: incremental checkpointing
 * from WL-tracked pages (the dirty set is exactly the pages written, and only those are copied),
 * and per-page access counting with processes of the same node isolated by their IUIDs.
 */
class ActiveAppsOnIommuTest {
    private static final Profile PROFILE = ProfileRegistry.load("aa-crayxe6");
    private static final int PAGES = 16;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void checkpointCopiesExactlyThePagesWrittenSinceTheLastOne(long seed) {
        Simulator sim = new Simulator(seed);
        var policy = PolicyRegistry.standard().create("aa-poll", PROFILE);
        ActiveAccess aa = policy.activeAccess();
        Job job = new Job(sim, PROFILE, 2, PAGES * Kernel.PAGE_SIZE, policy);
        Rank target = job.rank(1);
        Rank source = job.rank(0);
        IncrementalCheckpoint cp = new IncrementalCheckpoint(aa.domain(target.endpoint()), target.memory(),
                target.segment(), PAGES);
        RandomStream rnd = new RandomStream(seed);
        TreeSet<Long>[] written = new TreeSet[2];
        int[] copied = new int[2];
        for (int epoch = 0; epoch < 2; epoch++) {
            TreeSet<Long> pages = new TreeSet<>();
            int[] offsets = new int[6];
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = rnd.nextInt(PAGES);
                pages.add(target.segment() + offsets[i] * (long) Kernel.PAGE_SIZE);
            }
            written[epoch] = pages;
            int e = epoch;
            new SimProcess(sim, "writer" + epoch, ctx -> {
                for (int i = 0; i < offsets.length; i++) {
                    byte[] b = new byte[8];
                    b[0] = (byte) (17 * e + i + 1);
                    source.node().kernel().write(source.process(), source.segment(), b, 0, 8);
                    source.write(ctx, target, 0, offsets[i] * (long) Kernel.PAGE_SIZE + 64L * i, 8, 100L * e + i);
                    source.awaitSend(ctx);
                }
            }).start();
            sim.run();
            SimProcess.checkNoDeadlock(sim);
            assertEquals(pages, cp.dirtyPages(), "the log names exactly the pages written in epoch " + epoch);
            copied[epoch] = cp.take();
            assertEquals(pages.size(), copied[epoch], "only the dirty pages are copied");
            for (long page : pages) {
                byte[] mem = new byte[PhysicalMemory.PAGE_SIZE];
                target.node().kernel().read(target.process(), page, mem, 0, PhysicalMemory.PAGE_SIZE);
                assertArrayEquals(mem, cp.saved(page), "W=1: the puts reached memory and the checkpoint holds them");
            }
        }
        assertTrue(cp.dirtyPages().isEmpty());
        assertEquals(copied[0] + copied[1], cp.pagesCopied());
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6, 7})
    void countersSeeExactlyTheirOwnPagesAccessesAndIuidsIsolate(long seed) {
        Simulator sim = new Simulator(seed);
        var policy = PolicyRegistry.standard().create("aa-poll", PROFILE);
        ActiveAccess aa = policy.activeAccess();
        // ranks 1 and 3 share node 1; rank 0 writes to both
        Job job = new Job(sim, PROFILE, 2, 4, 4 * Kernel.PAGE_SIZE, policy);
        Rank source = job.rank(0);
        Rank[] targets = {job.rank(1), job.rank(3)};
        long[][] counted = new long[2][4];
        long[][] made = new long[2][4];
        for (int t = 0; t < 2; t++) {
            int tt = t;
            for (int p = 0; p < 4; p++) {
                int pp = p;
                aa.domain(targets[t].endpoint()).assocPage(targets[t].segment() + p * (long) Kernel.PAGE_SIZE, Actions.PUT_METADATA,
                        rec -> {
                            counted[tt][pp]++;
                            return 0;
                        });
            }
        }
        assertTrue(aa.domain(targets[0].endpoint()).iuid() != aa.domain(targets[1].endpoint()).iuid(), "one IUID per process");
        RandomStream rnd = new RandomStream(seed);
        int[] tgt = new int[40];
        int[] page = new int[40];
        for (int i = 0; i < tgt.length; i++) {
            tgt[i] = rnd.nextInt(2);
            page[i] = rnd.nextInt(4);
            made[tgt[i]][page[i]]++;
        }
        new SimProcess(sim, "accesses", ctx -> {
            for (int i = 0; i < tgt.length; i++) {
                source.write(ctx, targets[tgt[i]], 0, page[i] * (long) Kernel.PAGE_SIZE + 8L * i, 8, i);
                source.awaitSend(ctx);
            }
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertArrayEquals(made[0], counted[0], "each process counts exactly the accesses to its own pages");
        assertArrayEquals(made[1], counted[1], "each process counts exactly the accesses to its own pages");
    }
}
