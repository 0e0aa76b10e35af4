package org.pagefabric.reg.ats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.nic.IommuDmaPath;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/** The ATC's hits and misses, the Page Request path and the invalidation wait of ats-pri. */
class AtsPriPolicyTest {
    static final Profile PROFILE = ProfileRegistry.resolve("default").withOverrides(Map.of("nic.iommu", "true"), "test");
    private static final long SEGMENT = 1 << 21;
    private static final long DST = SEGMENT / 2;

    /** A two-rank job under ats-pri on {@code profile}; {@code body} runs as rank 0's process. */
    static Job run(Profile profile, BiConsumer<ProcessContext, Job> body) {
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, profile, 2, SEGMENT, new AtsPriPolicy(profile));
        new SimProcess(sim, job.rank(0).node(), "test", ctx -> body.accept(ctx, job)).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return job;
    }

    static void fill(Rank r, long offset, long length, long tag) {
        r.node().kernel().writeTag(r.process(), r.segment() + offset, length, tag, 0);
    }

    static boolean same(Rank a, long aOffset, Rank b, long bOffset, long length) {
        return a.node().kernel().digest(a.process(), a.segment() + aOffset, length)
                == b.node().kernel().digest(b.process(), b.segment() + bOffset, length);
    }

    static void put(ProcessContext ctx, Job job, long from, long to, long length) {
        Rank a = job.rank(0);
        a.write(ctx, job.rank(1), from, to, length, 1);
        assertEquals(Outcome.SUCCESS, a.awaitSend(ctx).status());
    }

    static IommuDmaPath path(Rank r) {
        return r.node().nic().iommuPath();
    }

    @Test
    void aSecondPutOfTheSamePagesIsServedByTheAtc() {
        long length = 16 << 10;
        long[] after = new long[4];
        run(PROFILE, (ctx, job) -> {
            fill(job.rank(0), 0, length, 5);
            fill(job.rank(1), DST, length, 6);
            put(ctx, job, 0, DST, length);
            after[0] = path(job.rank(1)).atcMisses();
            after[1] = path(job.rank(1)).atcHits();
            put(ctx, job, 0, DST, length);
            after[2] = path(job.rank(1)).atcMisses();
            after[3] = path(job.rank(1)).atcHits();
            assertTrue(same(job.rank(0), 0, job.rank(1), DST, length));
        });
        assertEquals(4, after[0], "the first put's four destination pages each sent a Translation Request");
        assertEquals(after[0], after[2], "the second put missed nothing");
        assertTrue(after[3] >= after[1] + 4, "the second put's pages hit: " + after[1] + " -> " + after[3]);
    }

    @Test
    void pagesThatAreNotPresentAreAskedForAndFaultedInWithoutPinning() {
        long length = 64 << 10;
        Job job = run(PROFILE, (ctx, j) -> {
            fill(j.rank(0), 0, length, 7);
            Rank b = j.rank(1);
            b.node().kernel().madvise(b.process(), b.segment() + DST, length, Advice.DONTNEED);
            put(ctx, j, 0, DST, length);
            assertTrue(same(j.rank(0), 0, b, DST, length), "the destination holds the source's bytes");
        });
        Rank b = job.rank(1);
        assertEquals(16, path(b).pageRequestsSent(), "one Page Request per destination page (all 16 in one group)");
        assertEquals(0, b.node().kernel().memory().frames().pinCount(
                org.pagefabric.hw.os.Pte.frame(b.process().translate(b.segment() + DST))));
        assertEquals(0, job.policy().pinnedBytes(b.endpoint()));
    }

    @Test
    void aSourcePageThatIsNotPresentStallsTheSendUntilItsPageResponseNotTheTransportsTimeOut() {
        long length = 4096;
        long[] elapsed = new long[1];
        Job job = run(PROFILE, (ctx, j) -> {
            Rank a = j.rank(0);
            fill(a, 0, length, 7);
            put(ctx, j, 0, DST, length); // destination translated, source's ATC entry filled
            a.node().kernel().madvise(a.process(), a.segment(), length, Advice.DONTNEED);
            long t0 = ctx.now();
            put(ctx, j, 0, DST, length);
            elapsed[0] = ctx.now() - t0;
            assertTrue(same(a, 0, j.rank(1), DST, length), "the zero-filled page arrived");
        });
        long timeout = PROFILE.time(org.pagefabric.hw.param.TransportParameters.TIMEOUT);
        // One Page Request's round: interrupt, I/O page-fault work, response (about 10 us in the default profile).
        assertTrue(elapsed[0] < 50 * Time.US, "send-side fault took " + Time.toMicros(elapsed[0]) + " us, the transport's"
                + " time-out is " + Time.toMicros(timeout) + " us");
        assertTrue(path(job.rank(0)).pageRequestsSent() >= 1, "the requester's NIC asked for its page");
        assertEquals(1, path(job.rank(0)).sendStalls());
    }

    @Test
    void aSourcePageTheOsCannotMakePresentEndsTheSendWithTheRetryLimitInsteadOfStallingForEver() {
        Profile quick = PROFILE.withOverrides(Map.of("transport.timeout", "10us", "transport.retry_limit", "2"), "test");
        Outcome[] status = new Outcome[1];
        run(quick, (ctx, j) -> {
            Rank a = j.rank(0);
            Kernel k = a.node().kernel();
            k.mprotect(a.process(), a.segment(), Kernel.PAGE_SIZE, org.pagefabric.hw.os.Prot.NONE);
            a.write(ctx, j.rank(1), 0, DST, Kernel.PAGE_SIZE, 1);
            status[0] = a.awaitSend(ctx).status();
        });
        assertEquals(Outcome.RETRY_EXCEEDED, status[0]);
    }

    @Test
    void theOutstandingAllocationBoundsEachPageRequestGroup() {
        long length = 64 << 10;
        Profile one = PROFILE.withOverrides(Map.of("ats.pri.outstanding", "1"), "test");
        long[] time = new long[2];
        int i = 0;
        for (Profile p : new Profile[] {PROFILE, one}) {
            int k = i++;
            run(p, (ctx, j) -> {
                fill(j.rank(0), 0, length, 9);
                Rank b = j.rank(1);
                b.node().kernel().madvise(b.process(), b.segment() + DST, length, Advice.DONTNEED);
                long start = ctx.now();
                put(ctx, j, 0, DST, length);
                time[k] = ctx.now() - start;
                assertTrue(same(j.rank(0), 0, b, DST, length));
            });
        }
        long rnr = PROFILE.time(org.pagefabric.hw.param.TransportParameters.RNR_DELAY);
        assertTrue(time[1] - time[0] > 10 * rnr, "one page a group costs an RNR back-off per page: "
                + time[0] + " ps with 32, " + time[1] + " ps with 1");
    }

    @Test
    void anUnmapWaitsForTheDevicesInvalidationCompletion() {
        long length = 16 << 10;
        long[] cost = new long[2];
        run(PROFILE, (ctx, job) -> {
            Rank b = job.rank(1);
            Kernel k = b.node().kernel();
            fill(job.rank(0), 0, length, 3);
            // No ATC entry yet: nothing to wait for beyond the messages.
            cost[0] = k.madvise(b.process(), b.segment() + DST + length, length, Advice.DONTNEED);
            put(ctx, job, 0, DST, length);
            int pasid = b.endpoint().pd().id();
            assertTrue(path(b).cachedFrame(pasid, b.segment() + DST) >= 0, "the put left its translation in the ATC");
            cost[1] = k.madvise(b.process(), b.segment() + DST, length, Advice.DONTNEED);
            for (long va = b.segment() + DST; va < b.segment() + DST + length; va += Kernel.PAGE_SIZE) {
                assertEquals(-1, path(b).cachedFrame(pasid, va), "the invalidation cleared the ATC");
            }
        });
        long messages = PROFILE.time(AtsParameters.INVALIDATION_REQUEST) + PROFILE.time(AtsParameters.INVALIDATION_COMPLETION);
        assertTrue(cost[0] >= messages && cost[1] >= messages,
                "every invalidation waits for the device's completion: " + cost[0] + ", " + cost[1] + " ps");
    }

    /**
     * In a virtual machine, the ATC holds combined translations; when the host takes a guest
     * frame, its device-TLB flush leaves no entry the NIC could still use, and the next put pays a
     * nested fault and lands intact. A hypervisor that does not tell devices (vm.host_notifier
     * false) leaves the entry in place.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aHostReclaimInAVirtualMachineFlushesTheAtc(boolean hostNotifier) {
        Profile vm = PROFILE.withOverrides(Map.of("vm.nested", "true", "vm.host_notifier", String.valueOf(hostNotifier)),
                "test");
        long length = 16 << 10;
        boolean[] cached = new boolean[2];
        long[] hostFaults = new long[1];
        run(vm, (ctx, job) -> {
            Rank b = job.rank(1);
            HostStage host = b.node().hostStage();
            int pasid = b.endpoint().pd().id();
            long va = b.segment() + DST;
            fill(job.rank(0), 0, length, 8);
            put(ctx, job, 0, DST, length);
            cached[0] = path(b).cachedFrame(pasid, va) >= 0;
            assertTrue(host.reclaim(b.process().physicalAddress(va) >>> 12), "the host takes the frame");
            cached[1] = path(b).cachedFrame(pasid, va) >= 0;
            long before = host.hostFaults();
            fill(job.rank(0), 0, length, 9);
            put(ctx, job, 0, DST, length);
            assertTrue(same(job.rank(0), 0, b, DST, length), "the put after the reclaim landed");
            hostFaults[0] = host.hostFaults() - before;
        });
        assertTrue(cached[0], "the first put left its translation in the ATC");
        assertEquals(!hostNotifier, cached[1], "the ATC entry after the host's reclaim");
        if (hostNotifier) {
            assertTrue(hostFaults[0] > 0, "the next put's translation walked into a host fault");
        }
    }

    @Test
    void theHitRateItPublishesIsTheAtcsAndResetsOnRequest() {
        long length = 8 << 10;
        Job job = run(PROFILE, (ctx, j) -> {
            fill(j.rank(0), 0, length, 1);
            put(ctx, j, 0, DST, length);
            j.policy().reset(Metric.HITS);
            j.policy().reset(Metric.MISSES);
            put(ctx, j, 0, DST, length);
        });
        assertEquals(0, job.policy().count(Metric.MISSES));
        assertTrue(job.policy().count(Metric.HITS) >= 4, "source and destination pages hit on both NICs");
    }

    @Test
    void aProfileWithoutTheIommuOnTheNicsPathIsRefused() {
        Profile plain = ProfileRegistry.resolve("default");
        Simulator sim = new Simulator(1);
        assertThrows(PolicyRefusal.class, () -> new Job(sim, plain, 2, SEGMENT, new AtsPriPolicy(plain)));
    }
}
