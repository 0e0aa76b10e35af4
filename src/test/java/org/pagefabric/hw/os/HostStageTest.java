package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.stat.StatisticsRegistry;

/** The hypervisor's second stage: backing, host faults, host pins under guest pins, notifiers. */
class HostStageTest {
    private static final long PAGE = Kernel.PAGE_SIZE;
    private static final HostCosts COSTS = new HostCosts(1_000, 2_000, 500);

    private static HostStage stage(boolean deviceNotifier) {
        return new HostStage(64, 4, COSTS, deviceNotifier, new StatisticsRegistry(() -> 0L), "vm");
    }

    @Test
    void everyGuestFrameStartsBackedAndAReclaimedOneIsBackedAgainByAFreshMachineFrame() {
        HostStage h = stage(true);
        assertEquals(5, h.machineFrame(5));
        assertEquals(0, h.fault(5), "a backed frame costs no host fault");
        List<Long> told = new ArrayList<>();
        h.subscribe(gfn -> told.add(gfn * 1000 + h.machineFrame(gfn)));
        assertTrue(h.reclaim(5));
        assertEquals(List.of(5005L), told, "listeners hear before the frame goes, while it is still backed");
        assertEquals(-1, h.machineFrame(5));
        assertFalse(h.reclaim(5), "nothing to take twice");
        assertEquals(COSTS.faultPs(), h.fault(5), "exit, page-in and resume");
        assertEquals(64, h.machineFrame(5), "a fresh machine frame");
        assertEquals(1, h.hostFaults());
    }

    @Test
    void aPinnedFrameIsRefusedByHostReclaimAndMigrationUntilItsLastUnpin() {
        HostStage h = stage(true);
        h.pin(3);
        h.pin(3);
        assertFalse(h.reclaim(3));
        assertFalse(h.migrate(3));
        assertEquals(2, h.refusedPinned());
        h.unpin(3);
        assertFalse(h.reclaim(3));
        h.unpin(3);
        assertTrue(h.migrate(3));
        assertThrows(IllegalStateException.class, () -> h.unpin(3));
    }

    @Test
    void aHypervisorThatForgetsDevicesSubscribesNone() {
        HostStage forgetful = stage(false);
        List<Long> told = new ArrayList<>();
        assertFalse(forgetful.subscribeDevice(told::add));
        forgetful.reclaim(1);
        assertEquals(List.of(), told);
        HostStage h = stage(true);
        assertTrue(h.subscribeDevice(told::add));
        h.reclaim(1);
        assertEquals(List.of(1L), told);
    }

    @Test
    void aGuestPinPinsTheHostFrameTooAndPaysTheHostFaultOfAFrameTheHostTook() {
        Kernel k = TestKernels.kernel(256, 0, ThpMode.NEVER);
        HostStage h = new HostStage(256, 4, COSTS, true, new StatisticsRegistry(() -> 0L), "vm");
        k.runOver(h);
        AddressSpace as = k.createProcess(1 << 20, true);
        long a = k.mmap(as, 0, 2 * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long gfn = as.physicalAddress(a) >>> 12;
        assertTrue(h.reclaim(gfn));
        PinResult r = k.getUserPages(as, a, 2, true);
        assertEquals(2, r.pinned());
        assertEquals(2, h.hostPins());
        assertEquals(1, h.hostFaults(), "the frame the host took is backed again beneath the guest's pin");
        assertTrue(r.costPs() >= COSTS.faultPs());
        assertFalse(h.reclaim(gfn), "pinned in both stages");
        k.putPage(r.frames()[0]);
        k.putPage(r.frames()[1]);
        assertTrue(h.reclaim(gfn), "the last put_page drops the host pin");
    }

    /**
     * Random host faults, pins, unpins, reclaims and migrations against a plain model: a frame is
     * backed unless reclaimed since its last fault, every backed frame has its own machine frame,
     * a pinned frame never loses or changes it, and listeners hear of every change before it.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
    void randomSequencesKeepBackingPinsAndNotificationsRight(long seed) {
        RandomStream rnd = new RandomStream(seed);
        HostStage h = new HostStage(16, 4, COSTS, true, new StatisticsRegistry(() -> 0L), "vm");
        Set<Long> absent = new HashSet<>();
        Map<Long, Integer> pins = new HashMap<>();
        Map<Long, Long> frameWhenTold = new HashMap<>();
        h.subscribe(gfn -> frameWhenTold.put(gfn, h.machineFrame(gfn)));
        for (int op = 0; op < 400; op++) {
            long gfn = rnd.nextInt(16);
            long before = h.machineFrame(gfn);
            frameWhenTold.remove(gfn);
            boolean pinned = pins.getOrDefault(gfn, 0) > 0;
            switch (rnd.nextInt(5)) {
                case 0 -> {
                    long t = h.fault(gfn);
                    assertEquals(absent.remove(gfn) ? COSTS.faultPs() : 0, t);
                }
                case 1 -> {
                    h.pin(gfn);
                    absent.remove(gfn);
                    pins.merge(gfn, 1, Integer::sum);
                }
                case 2 -> {
                    if (pinned) {
                        h.unpin(gfn);
                        pins.merge(gfn, -1, Integer::sum);
                    }
                }
                case 3 -> {
                    boolean took = h.reclaim(gfn);
                    assertEquals(!pinned && !absent.contains(gfn), took);
                    if (took) {
                        absent.add(gfn);
                        assertEquals(before, frameWhenTold.get(gfn), "told before the frame went");
                    }
                }
                default -> {
                    boolean moved = h.migrate(gfn);
                    assertEquals(!pinned && !absent.contains(gfn), moved);
                    if (moved) {
                        assertEquals(before, frameWhenTold.get(gfn), "told before the frame moved");
                    }
                }
            }
            if (pinned && pins.getOrDefault(gfn, 0) > 0) {
                assertEquals(before, h.machineFrame(gfn), "a pinned frame keeps its machine frame");
            }
            Set<Long> machine = new HashSet<>();
            for (long g = 0; g < 16; g++) {
                assertEquals(!absent.contains(g), h.present(g));
                assertEquals(pins.getOrDefault(g, 0).longValue(), h.pinCount(g));
                if (h.present(g)) {
                    assertTrue(machine.add(h.machineFrame(g)), "machine frame " + h.machineFrame(g) + " backs two guest frames");
                }
            }
        }
    }
}
