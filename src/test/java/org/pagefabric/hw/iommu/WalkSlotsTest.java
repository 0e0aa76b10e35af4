package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Walks beyond the IOMMU's slots wait for the first slot to free. */
class WalkSlotsTest {
    @Test
    void aWalkFindingEverySlotBusyWaitsForTheFirstToFree() {
        WalkSlots slots = new WalkSlots(2);
        assertEquals(0, slots.reserve(0, 100));
        assertEquals(0, slots.reserve(10, 100));
        assertEquals(90, slots.reserve(10, 100));
        assertEquals(100, slots.reserve(10, 100));
        assertEquals(0, slots.reserve(500, 100));
    }

    @Test
    void noBoundLetsEveryWalkStartAtOnce() {
        WalkSlots slots = new WalkSlots(0);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, slots.reserve(5, 1000));
        }
    }
}
