package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;

/** The IOMMU's translation time is spent on the NIC's timed (UD) DMA paths. */
class IommuDmaTimingTest {
    private static final int PAYLOAD = 1000;

    /** One datagram from node 0 to node 1 through IOMMU-translated buffers. */
    private static final class Pair {
        final Simulator sim = new Simulator(7);
        final Profile profile;
        final Job job;
        final QueuePair tx;
        final QueuePair rx;
        final MemoryRegion txMr;
        final MemoryRegion rxMr;
        final CompletionQueue rxCq = new CompletionQueue("rxcq", 16);
        final CompletionQueue txCq = new CompletionQueue("txcq", 16);

        Pair(String iommu) {
            profile = ProfileRegistry.load("aa-gem5").withOverrides(Map.of("nic.iommu", iommu), "test");
            job = new Job(sim, profile, 2, 2, Kernel.PAGE_SIZE, PolicyRegistry.standard().create("pin-all", profile), false);
            txMr = region(job.rank(0));
            rxMr = region(job.rank(1));
            tx = job.rank(0).node().nic().createUdQp(job.rank(0).endpoint().pd(), txCq,
                    new CompletionQueue("u0", 1), PAYLOAD);
            rx = job.rank(1).node().nic().createUdQp(job.rank(1).endpoint().pd(),
                    new CompletionQueue("u1", 1), rxCq, PAYLOAD);
        }

        private static MemoryRegion region(Rank r) {
            Nic nic = r.node().nic();
            if (nic.iommuPath() == null) {
                return r.endpoint().segmentRegion();
            }
            SharedVirtualAddressing.bind(r.node().iommu(), r.endpoint().pd().id(), r.process());
            return nic.registerVirtual(r.endpoint().pd(), r.segment(), r.segmentLength(), AccessFlags.LOCAL_WRITE);
        }

        /** Sends one datagram now and returns when its receive completion landed, relative to the post. */
        long oneWay(long id) {
            long start = sim.now();
            rx.postRecv(WorkRequest.recv(id, job.rank(1).segment(), PAYLOAD, rxMr.lkey()));
            tx.postSend(WorkRequest.send(id, job.rank(0).segment(), PAYLOAD, txMr.lkey()),
                    new AddressHandle(job.rank(1).node().id(), rx.qpn()));
            sim.run();
            WorkCompletion wc = rxCq.poll();
            assertEquals(CompletionStatus.SUCCESS, wc.status());
            txCq.poll();
            return wc.timePs() - start;
        }
    }

    @Test
    void aColdIotlbCostsTheWalkAndContextFetchTheProfileStatesOnBothSides() {
        Pair pair = new Pair("true");
        long cold = pair.oneWay(1);
        Iommu src = pair.job.rank(0).node().iommu();
        int levels = src.walker().lastLevels();
        long warm = pair.oneWay(2);
        long walk = pair.profile.time(org.pagefabric.hw.param.IommuParameters.WALK_PER_LEVEL);
        long context = pair.profile.time(org.pagefabric.hw.param.IommuParameters.CONTEXT_FETCH);
        assertTrue(levels > 0);
        assertEquals(2 * (levels * walk + context), cold - warm,
                "source read and destination write each walk " + levels + " levels and fetch the context once");
        long third = pair.oneWay(3);
        assertEquals(warm, third, "a warm IOTLB costs the same every time");
    }

    @Test
    void theIommuAddsItsHitLatencyToAWarmTransfer() {
        Pair with = new Pair("true");
        Pair without = new Pair("false");
        with.oneWay(1);
        without.oneWay(1);
        long warmWith = with.oneWay(2);
        long warmWithout = without.oneWay(2);
        assertTrue(warmWith > warmWithout, warmWith + " ps with the IOMMU, " + warmWithout + " ps without");
    }

    @Test
    void stageOverlapsHitsAndLetsAWalkHoldThePacketsBehindIt() {
        TranslationStage s = new TranslationStage();
        assertEquals(110, s.admit(100, 10, false));
        assertEquals(115, s.admit(105, 10, false), "a hit's latency overlaps with the previous packet's");
        assertEquals(420, s.admit(120, 300, true));
        assertEquals(430, s.admit(125, 10, false), "a packet behind a walk waits for it");
        assertEquals(430, s.admit(126, 1, false), "ready times never decrease: accesses leave in order");
        assertEquals(1010, s.admit(1000, 10, false), "an idle stage adds only the translation's own time");
    }
}
