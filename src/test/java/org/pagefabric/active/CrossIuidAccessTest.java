package org.pagefabric.active;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.iommu.aa.ActiveAccessUnit;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * Cross-IUID puts end to end (002 §3): the target process's pages name, in their IOMMU entries,
 * the IUID of an access log another process on the node owns. Remote puts through a genuine key
 * to those pages go through NIC, transport and IOMMU; the Active Access unit must refuse each to
 * the foreign log (and count it), so the other process's log and memory stay untouched, while
 * the put lands in the target's own page, which its key legitimately covers.
 */
class CrossIuidAccessTest {
    private static final Profile PROFILE = ProfileRegistry.load("aa-crayxe6");
    private static final int PAGES = 4;
    private static final int PUTS = 20_000;

    @Test
    void putsToPagesNamingAnotherProcesssIuidNeverReachItsLogAndAreEachCounted() {
        Simulator sim = new Simulator(17);
        var policy = PolicyRegistry.standard().create("aa-int", PROFILE);
        ActiveAccess aa = policy.activeAccess();
        Job job = new Job(sim, PROFILE, 2, PAGES * Kernel.PAGE_SIZE, policy);
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        ActiveDomain own = aa.domain(dst.endpoint());
        Kernel kernel = dst.node().kernel();
        AddressSpace other = kernel.createProcess(Long.MAX_VALUE, true);
        ActiveDomain foreign = new ActiveDomain(own.node(), other, dst.node().nic().allocatePd("other").id(),
                aa.notification(), false);
        long clear = Pte.WL | Pte.WLD | Pte.RL | Pte.RLD | Pte.withIuid(0, Pte.MAX_IUID);
        for (int p = 0; p < PAGES; p++) {
            long page = dst.segment() + (long) p * Kernel.PAGE_SIZE;
            // The target's page names the other process's IUID: what a forged or stale entry would do.
            kernel.setDeviceBits(dst.process(), page, Actions.pteBits(Actions.PUT_DATA) | Pte.withIuid(0, foreign.iuid()),
                    clear);
            dst.node().iommu().invalidatePage(own.pdid(), page);
        }
        byte[] ringBefore = new byte[foreign.node().costs().logBytes()];
        kernel.read(other, foreign.log().baseVa(), ringBefore, 0, ringBefore.length);
        ActiveAccessUnit unit = own.node().unit();
        long refusedBefore = unit.isolationRefusals();

        byte[] data = new byte[(int) (PAGES * Kernel.PAGE_SIZE)];
        RandomStream fill = new RandomStream(5);
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) fill.nextInt(256);
        }
        src.node().kernel().write(src.process(), src.segment(), data, 0, data.length);
        byte[] expected = new byte[data.length];
        kernel.read(dst.process(), dst.segment(), expected, 0, expected.length);
        RandomStream r = new RandomStream(9);
        int[] failed = new int[1];
        new SimProcess(sim, "attacker", ctx -> {
            for (int i = 0; i < PUTS; i++) {
                int len = 8 * (1 + r.nextInt(8));
                int at = 8 * r.nextInt((data.length - len) / 8);
                src.write(ctx, dst, at, at, len, i);
                if (src.awaitSend(ctx).status() != Outcome.SUCCESS) {
                    failed[0]++;
                }
                System.arraycopy(data, at, expected, at, len);
            }
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);

        assertEquals(0, failed[0], "the key covers the target's page: every put completes");
        assertEquals(PUTS, unit.isolationRefusals() - refusedBefore, "every put refused to the foreign log, counted");
        assertEquals(0, foreign.log().reserved(), "nothing reached the other process's log");
        byte[] ringAfter = new byte[ringBefore.length];
        kernel.read(other, foreign.log().baseVa(), ringAfter, 0, ringAfter.length);
        assertArrayEquals(ringBefore, ringAfter, "the other process's log ring is untouched");
        byte[] landed = new byte[expected.length];
        kernel.read(dst.process(), dst.segment(), landed, 0, landed.length);
        assertArrayEquals(expected, landed, "each put landed in the target's own page, where its key reaches");
        assertEquals(0, own.log().reserved(), "the target's own log was not named by these pages either");
    }
}
