package org.pagefabric.reg.nprdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/** NP-RDMA's steps in order: nothing pinned, the check before posting, and the software fault path at each end. */
class NpRdmaPolicyTest {
    private static final Profile PROFILE = ProfileRegistry.resolve("nprdma-connectx");
    private static final long SEGMENT = 1 << 20;
    private static final long DST = SEGMENT / 2;
    private static final long PAGE = Kernel.PAGE_SIZE;

    private static Job run(Profile profile, NpRdmaPolicy policy, BiConsumer<ProcessContext, Job> body) {
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, profile, 2, SEGMENT, policy);
        new SimProcess(sim, job.rank(0).node(), "test", ctx -> body.accept(ctx, job)).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return job;
    }

    private static void fill(Rank r, long offset, long length, long tag) {
        r.node().kernel().writeTag(r.process(), r.segment() + offset, length, tag, 0);
    }

    private static boolean arrived(Job job, long length, long tag) {
        Rank b = job.rank(1);
        return b.node().kernel().verifyTag(b.process(), b.segment() + DST, length, tag, 0);
    }

    private static void put(ProcessContext ctx, Job job, long length) {
        Rank a = job.rank(0);
        a.write(ctx, job.rank(1), 0, DST, length, 1);
        assertEquals(Outcome.SUCCESS, a.awaitSend(ctx).status());
    }

    private static void drop(Rank r, long offset, long length) {
        r.node().kernel().madvise(r.process(), r.segment() + offset, length, Advice.DONTNEED);
    }

    @Test
    void nothingIsPinnedAndAWarmPutCostsOnlyTheCheck() {
        NpRdmaPolicy policy = new NpRdmaPolicy(PROFILE);
        long[] policyPs = new long[2];
        long[] requests = new long[2];
        Job job = run(PROFILE, policy, (ctx, j) -> {
            fill(j.rank(0), 0, PAGE, 7);
            put(ctx, j, PAGE);
            requests[0] = policy.remoteResolves();
            policyPs[0] = j.rank(0).endpoint().policyTimePs();
            fill(j.rank(0), 0, PAGE, 8);
            put(ctx, j, PAGE);
            requests[1] = policy.remoteResolves();
            policyPs[1] = j.rank(0).endpoint().policyTimePs();
            assertTrue(arrived(j, PAGE, 8), "the second put's bytes are at the target");
        });
        assertEquals(0, job.rank(0).process().pinnedPages(), "the source pins nothing");
        assertEquals(0, job.rank(1).process().pinnedPages(), "the target pins nothing");
        assertEquals(1, requests[0], "the first put asked the target's module once: the library had no status yet");
        assertEquals(requests[0], requests[1], "the second put found the target's page present in its copy");
        long check = PROFILE.time(NpRdmaParameters.WRAP) + 2 * PROFILE.time(NpRdmaParameters.CHECK_PER_PAGE);
        assertEquals(check, policyPs[1] - policyPs[0], "a warm put costs the wrapper and one check per end");
        assertEquals(0, job.rank(1).node().nic().iommuPath().destinationFaults(), "the NIC never met a missing page");
    }

    @Test
    void aDroppedDestinationPageIsResolvedByTheTargetsModuleBeforeTheWrite() {
        NpRdmaPolicy policy = new NpRdmaPolicy(PROFILE);
        long[] requests = new long[2];
        long[] minor = new long[2];
        Job job = run(PROFILE, policy, (ctx, j) -> {
            fill(j.rank(0), 0, PAGE, 1);
            put(ctx, j, PAGE);
            requests[0] = policy.remoteResolves();
            minor[0] = policy.minorFaults();
            drop(j.rank(1), DST, PAGE);
            fill(j.rank(0), 0, PAGE, 2);
            put(ctx, j, PAGE);
            requests[1] = policy.remoteResolves();
            minor[1] = policy.minorFaults();
            assertTrue(arrived(j, PAGE, 2), "the write after the drop landed in the new page");
        });
        assertEquals(requests[0] + 1, requests[1], "the notifier cleared the initiator's copy: one request");
        assertEquals(minor[0] + 1, minor[1], "the target's module resolved the dropped page as a minor fault");
        assertEquals(0, job.rank(1).node().nic().iommuPath().destinationFaults(),
                "the page was present before the NIC wrote it");
        assertEquals(0, job.rank(1).process().pinnedPages(), "resolving pinned nothing");
    }

    @Test
    void aDroppedSourcePageIsResolvedLocallyWithoutARequest() {
        NpRdmaPolicy policy = new NpRdmaPolicy(PROFILE);
        long[] requests = new long[2];
        long[] policyPs = new long[2];
        run(PROFILE, policy, (ctx, j) -> {
            fill(j.rank(0), 0, PAGE, 3);
            put(ctx, j, PAGE);
            requests[0] = policy.remoteResolves();
            drop(j.rank(0), 0, PAGE);
            policyPs[0] = j.rank(0).endpoint().policyTimePs();
            put(ctx, j, PAGE);
            policyPs[1] = j.rank(0).endpoint().policyTimePs();
            requests[1] = policy.remoteResolves();
            Rank a = j.rank(0);
            Rank b = j.rank(1);
            assertEquals(a.node().kernel().digest(a.process(), a.segment(), PAGE),
                    b.node().kernel().digest(b.process(), b.segment() + DST, PAGE),
                    "the target holds the source page as it reads after the drop (zeros)");
        });
        assertEquals(requests[0], requests[1], "a local page needs no request to the target");
        long atLeast = PROFILE.time(org.pagefabric.hw.param.OsParameters.SYSCALL)
                + PROFILE.time(org.pagefabric.hw.param.OsParameters.PAGE_FAULT_MINOR)
                + PROFILE.time(NpRdmaParameters.IOMMU_MAP);
        assertTrue(policyPs[1] - policyPs[0] >= atLeast,
                "the put paid the ioctl, the fault and the IOMMU mapping: " + (policyPs[1] - policyPs[0]));
    }

    @Test
    void aNicWithoutAnIommuIsRefused() {
        Profile noIommu = PROFILE.withOverrides(Map.of("nic.iommu", "false"), "test");
        assertThrows(PolicyRefusal.class, () -> run(noIommu, new NpRdmaPolicy(noIommu), (ctx, j) -> { }));
    }
}
