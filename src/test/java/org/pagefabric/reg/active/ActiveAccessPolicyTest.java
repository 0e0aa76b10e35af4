package org.pagefabric.reg.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.active.Actions;
import org.pagefabric.active.ActiveDomain;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.iommu.aa.AccessKind;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * End to end over the simulated NIC and IOMMU: puts from two ranks to a third rank's active page
 * reach its handler exactly once each, with their data, and puts to its other pages do not;
 * puts to another rank's active page never reach this rank's log.
 */
class ActiveAccessPolicyTest {
    private static final Profile PROFILE = ProfileRegistry.load("aa-crayxe6");

    @ParameterizedTest
    @ValueSource(strings = {"aa-int", "aa-poll", "aa-sp"})
    void handlersSeeExactlyThePutsToTheirPages(String name) {
        Simulator sim = new Simulator(3);
        ActiveAccessPolicy policy = (ActiveAccessPolicy) PolicyRegistry.standard().create(name, PROFILE);
        Job job = new Job(sim, PROFILE, 3, 4 * Kernel.PAGE_SIZE, policy);
        Rank target = job.rank(2);
        Rank other = job.rank(1);
        ActiveDomain domain = policy.domain(target.endpoint());
        ActiveDomain otherDomain = policy.domain(other.endpoint());
        List<Long> seen = new ArrayList<>();
        List<Long> seenByOther = new ArrayList<>();
        domain.assocPage(target.segment() + Kernel.PAGE_SIZE, Actions.PUT_DATA, r -> {
            assertEquals(AccessKind.PUT_DATA, r.kind);
            seen.add(r.word(0));
            return 100_000;
        });
        otherDomain.assocPage(other.segment() + Kernel.PAGE_SIZE, Actions.PUT_METADATA, r -> {
            seenByOther.add(r.va);
            return 0;
        });
        int puts = 12; // above aa.interrupt.batch's 10, so an interrupt-driven domain is notified
        for (int src = 0; src < 2; src++) {
            Rank me = job.rank(src);
            int base = src;
            new SimProcess(sim, "src" + src, ctx -> {
                for (int i = 0; i < puts; i++) {
                    long value = 1000L * (base + 1) + i;
                    me.node().kernel().write(me.process(), me.segment() + 8L * i, longBytes(value), 0, 8);
                    long at = (i % 3 == 2) ? 2 * Kernel.PAGE_SIZE : Kernel.PAGE_SIZE; // every third put to a plain page
                    me.write(ctx, target, 8L * i, at + 8L * (i + 16 * base), 8, i);
                    me.awaitSend(ctx);
                }
            }).start();
        }
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        List<Long> expected = new ArrayList<>();
        for (int src = 0; src < 2; src++) {
            for (int i = 0; i < puts; i++) {
                if (i % 3 != 2) {
                    expected.add(1000L * (src + 1) + i);
                }
            }
        }
        seen.sort(null);
        expected.sort(null);
        if (!name.equals("aa-int")) {
            assertEquals(expected, seen, "each put to the active page exactly once, with its data");
        } else {
            assertTrue(seen.size() >= 10 && expected.containsAll(seen), "interrupts every aa.interrupt.batch entries");
        }
        assertTrue(seenByOther.isEmpty(), "another process's log never sees these puts");
        assertEquals(0, domain.log().stalls());
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }
}
