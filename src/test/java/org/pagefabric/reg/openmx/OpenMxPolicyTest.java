package org.pagefabric.reg.openmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

class OpenMxPolicyTest {
    private static final Profile PROFILE = ProfileRegistry.resolve("openmx-xeon5460");
    private static final long MIB = 1 << 20;
    private static final int PAGES = (int) (MIB / 4096);

    private static OpenMxBed stream(PinMode mode, int messages, long size, boolean[] ok) {
        OpenMxBed bed = new OpenMxBed(PROFILE, mode, 2 * MIB, 3);
        for (int i = 0; i < messages; i++) {
            bed.message(i, 0, MIB, size, ok);
        }
        return bed;
    }

    @Test
    void pinPerCommunicationPinsBothBuffersEveryTimeAndKeepsNothing() {
        boolean[] ok = {true};
        OpenMxBed bed = stream(PinMode.PER_COMMUNICATION, 4, MIB, ok);
        assertTrue(ok[0]);
        assertEquals(4L * 2 * PAGES, bed.policy.pinnedPagesTotal(), "sender and receiver region pinned per message");
        assertEquals(bed.policy.pinnedPagesTotal(), bed.policy.unpinnedPagesTotal());
        assertEquals(0, bed.policy.regionPinnedBytes(bed.a.endpoint()) + bed.policy.regionPinnedBytes(bed.b.endpoint()));
    }

    @Test
    void messagesPairWithReceivesInOrderWhateverTheirWorkRequestIds() {
        // A trace replay names each side's operations by its own record numbers: the ids differ.
        // An eager and a rendezvous message, the second sent before any receive is posted, must
        // land in the first and second receive, in that order, under every pin mode.
        for (PinMode mode : PinMode.values()) {
            OpenMxBed bed = new OpenMxBed(ProfileRegistry.load("openmx-base"), mode, 4 * MIB, 3);
            long[] sizes = {4096, MIB};
            for (int i = 0; i < 2; i++) {
                bed.a.node().kernel().writeTag(bed.a.process(), bed.a.segment() + i * 2 * MIB, sizes[i], 0x0DD0L + i, 0);
            }
            long[] got = new long[2];
            new SimProcess(bed.sim, bed.a.node(), "sender", ctx -> {
                for (int i = 0; i < 2; i++) {
                    bed.a.send(ctx, bed.b, i * 2 * MIB, sizes[i], 100 + i);
                }
                for (int i = 0; i < 2; i++) {
                    bed.a.awaitSend(ctx);
                }
            }).start();
            new SimProcess(bed.sim, bed.b.node(), "receiver", ctx -> {
                ctx.sleep(50 * Time.US);
                for (int i = 0; i < 2; i++) {
                    bed.b.receive(ctx, bed.a, i * 2 * MIB, sizes[i], 7 + i);
                }
                for (int i = 0; i < 2; i++) {
                    got[i] = bed.b.awaitReceive(ctx).wrId();
                }
            }).start();
            bed.sim.run();
            SimProcess.checkNoDeadlock(bed.sim);
            for (int i = 0; i < 2; i++) {
                assertTrue(bed.b.node().kernel().verifyTag(bed.b.process(), bed.b.segment() + i * 2 * MIB, sizes[i],
                        0x0DD0L + i, 0), mode + ": message " + i + " in receive " + i);
            }
            assertTrue(got[0] == 7 || got[0] == 8, mode.name());
        }
    }

    @Test
    void permanentPinsEachBufferOnce() {
        boolean[] ok = {true};
        OpenMxBed bed = stream(PinMode.PERMANENT, 4, MIB, ok);
        assertTrue(ok[0]);
        assertEquals(2L * PAGES, bed.policy.pinnedPagesTotal());
        assertEquals(MIB, bed.policy.regionPinnedBytes(bed.a.endpoint()));
        assertEquals(MIB, bed.policy.regionPinnedBytes(bed.b.endpoint()));
    }

    @Test
    void eagerMessagesPinNoUserRegion() {
        for (PinMode mode : PinMode.values()) {
            boolean[] ok = {true};
            OpenMxBed bed = stream(mode, 5, 32 * 1024, ok);
            assertTrue(ok[0], mode.name());
            assertEquals(0, bed.policy.regionPinnedBytes(bed.a.endpoint()) + bed.policy.regionPinnedBytes(bed.b.endpoint()), mode.name());
        }
    }

    @Test
    void cacheHitsAfterFirstUseAndMunmapInvalidatesThroughTheMmuNotifier() {
        boolean[] ok = {true};
        OpenMxBed bed = stream(PinMode.CACHE, 3, MIB, ok);
        assertTrue(ok[0]);
        assertEquals(2L * PAGES, bed.policy.pinnedPagesTotal(), "pinned once per buffer");
        assertEquals(4L, ((org.pagefabric.sim.stat.Counter) bed.sim.statistics().get("openmx-cache.hits")).value());
        bed.remapReceiver(MIB, MIB);
        assertEquals(1, bed.policy.invalidations());
        assertEquals(0, bed.policy.regionPinnedBytes(bed.b.endpoint()), "the invalidated region is unpinned");
        bed.message(3, 0, MIB, MIB, ok);
        assertTrue(ok[0], "the data lands in the new mapping");
        assertEquals(3L * PAGES, bed.policy.pinnedPagesTotal(), "the declared region is pinned again on next use");
        bed.policy.closeEndpoint(bed.a.endpoint());
        bed.policy.closeEndpoint(bed.b.endpoint());
        assertEquals(0, bed.policy.regionPinnedBytes(bed.a.endpoint()) + bed.policy.regionPinnedBytes(bed.b.endpoint()));
    }

    @Test
    void overlapMissesAreDroppedCountedAndRecoveredWithEveryByteDelivered() {
        // once the pull request has left (20 us), bottom halves unrelated to the transfer hold the
        // receiving process's core (core 1: the NIC interrupts core 0) for 500 us: the overlapped
        // pinning they preempt falls behind the pull replies, which must be dropped and asked for again
        boolean[] ok = {true};
        OpenMxBed bed = new OpenMxBed(PROFILE, PinMode.OVERLAP, 2 * MIB, 3);
        new SimProcess(bed.sim, bed.b.node(), "hog", ctx -> {
            ctx.sleep(20 * Time.US);
            bed.b.node().cpu().core(1).submit(org.pagefabric.hw.cpu.Core.TASKLET, null, 500 * Time.US, null, null, 0, 0,
                    null);
        }).start();
        for (int i = 0; i < 2; i++) {
            bed.message(i, 0, MIB, MIB, ok);
        }
        assertTrue(ok[0], "every byte delivered");
        assertTrue(bed.policy.overlapMisses() > 0, "overlap misses counted");
        assertEquals(0, bed.policy.regionPinnedBytes(bed.a.endpoint()) + bed.policy.regionPinnedBytes(bed.b.endpoint()));
        assertEquals(bed.policy.pinnedPagesTotal(), bed.policy.unpinnedPagesTotal());
    }

    @Test
    void overlapWithFastPinningMissesNothingAndBeatsPinningPerCommunication() {
        Map<String, Object> pin = PointRun.run(PROFILE, "openmx-pin", WorkloadRegistry.standard().byName("pingpong"), MIB, 3, 1);
        Map<String, Object> overlap = PointRun.run(PROFILE, "openmx-overlap", WorkloadRegistry.standard().byName("pingpong"), MIB, 3, 1);
        Map<String, Object> cache = PointRun.run(PROFILE, "openmx-cache", WorkloadRegistry.standard().byName("pingpong"), MIB, 3, 1);
        for (Map<String, Object> r : java.util.List.of(pin, overlap, cache)) {
            assertEquals(true, r.get("verified"));
        }
        double bwPin = ((Number) pin.get("bandwidth_MBps")).doubleValue();
        assertTrue(((Number) overlap.get("bandwidth_MBps")).doubleValue() > bwPin, "pinning hidden behind the handshake");
        assertTrue(((Number) cache.get("bandwidth_MBps")).doubleValue() > bwPin, "pinning done once");
    }

    @Test
    void oneSidedOperationsAreRefused() {
        OpenMxBed bed = new OpenMxBed(PROFILE, PinMode.CACHE, MIB, 1);
        boolean[] refused = {false};
        new SimProcess(bed.sim, bed.a.node(), "put", ctx -> {
            try {
                bed.a.write(ctx, bed.b, 0, 0, 4096, 1);
            } catch (PolicyRefusal e) {
                refused[0] = true;
            }
        }).start();
        bed.sim.run();
        assertTrue(refused[0]);
        assertThrows(PolicyRefusal.class, () -> bed.policy.local(null, bed.a.endpoint(), bed.a.segment(), 8));
    }
}
