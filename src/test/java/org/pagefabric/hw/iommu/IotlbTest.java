package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;

/** Multi-level lookups, fills, huge pages and invalidation scopes. */
class IotlbTest {
    private static final long PTE = Pte.withFrame(MapPageTable.RW, 0x55);

    private static Iotlb smmuLike() {
        return new Iotlb(List.of(IotlbLevelConfig.fullyAssociative(4, ReplacementPolicy.LRU, 10),
                IotlbLevelConfig.parse("lru_a4", 32, 100)), new RandomStream(1));
    }

    @Test
    void lookupPaysEachProbedLevelAndHitsInL2RefillL1() {
        Iotlb tlb = smmuLike();
        assertEquals(0, tlb.lookup(1, 0x1000));
        assertEquals(-1, tlb.lastHitLevel());
        assertEquals(110, tlb.lastLookupPs());
        tlb.fill(1, 0x1000, PTE);
        assertEquals(PTE, tlb.lookup(1, 0x1abc));
        assertEquals(0, tlb.lastHitLevel());
        assertEquals(10, tlb.lastLookupPs());
        // Push the page out of the 4-entry L1, keep it in L2.
        for (long p = 2; p < 6; p++) {
            tlb.fill(1, p << 12, PTE);
        }
        assertEquals(-1, tlb.level(0).find(Iotlb.key(1, 0x1000, false)));
        assertEquals(PTE, tlb.lookup(1, 0x1000));
        assertEquals(1, tlb.lastHitLevel());
        assertEquals(110, tlb.lastLookupPs());
        assertEquals(PTE, tlb.lookup(1, 0x1000));
        assertEquals(0, tlb.lastHitLevel(), "the L2 hit was copied into L1");
    }

    @Test
    void domainsDoNotSeeEachOthersTranslations() {
        Iotlb tlb = smmuLike();
        tlb.fill(1, 0x1000, PTE);
        assertEquals(0, tlb.lookup(2, 0x1000));
        assertEquals(2, tlb.invalidateDomain(1));
        assertEquals(0, tlb.lookup(1, 0x1000));
    }

    @Test
    void hugeEntryAnswersForEveryPageInside() {
        Iotlb tlb = smmuLike();
        long huge = Pte.withFrame(MapPageTable.RW | Pte.HUGE, 0x200);
        tlb.fill(3, 0x4000_0000L, huge);
        assertEquals(huge, tlb.lookup(3, 0x4000_0000L + 0x1F_F000L));
        assertEquals(0, tlb.lookup(3, 0x4020_0000L));
        assertEquals(2, tlb.invalidatePage(3, 0x4000_5000L), "a page invalidation inside drops the 2 MiB entry");
        assertEquals(0, tlb.lookup(3, 0x4000_0000L));
    }

    @Test
    void rangeInvalidationBySmallAndLargeRanges() {
        Iotlb tlb = new Iotlb(List.of(IotlbLevelConfig.fullyAssociative(1024, ReplacementPolicy.LRU, 1)),
                new RandomStream(1));
        for (long p = 0; p < 300; p++) {
            tlb.fill(1, p << 12, PTE);
            tlb.fill(2, p << 12, PTE);
        }
        long huge = Pte.withFrame(MapPageTable.RW | Pte.HUGE, 0x200);
        tlb.fill(1, 0x20_0000L, huge);
        // Probe path: pages 10..19.
        assertEquals(10, tlb.invalidateRange(1, 10 << 12, 10 << 12));
        // Scan path: pages 100..299 and the 2 MiB entry at 2 MiB (page 512 on) is outside.
        assertEquals(200, tlb.invalidateRange(1, 100 << 12, 200L << 12));
        assertEquals(PTE, tlb.lookup(1, 99 << 12));
        assertEquals(0, tlb.lookup(1, 100 << 12));
        assertEquals(0, tlb.lookup(1, 15 << 12));
        assertEquals(PTE, tlb.lookup(2, 150 << 12), "other domains keep their entries");
        assertEquals(huge, tlb.lookup(1, 0x20_0000L));
        // A large range overlapping the huge page removes it.
        assertEquals(1, tlb.invalidateRange(1, 0x30_0000L, 0x100_0000L));
        assertEquals(0, tlb.lookup(1, 0x20_0000L));
    }

    @Test
    void badKeysAndNonPresentFillsAreRefused() {
        Iotlb tlb = smmuLike();
        assertThrows(IllegalArgumentException.class, () -> Iotlb.key(Iotlb.MAX_PDID + 1, 0, false));
        assertThrows(IllegalArgumentException.class, () -> Iotlb.key(0, 1L << 48, false));
        assertThrows(IllegalArgumentException.class, () -> tlb.fill(1, 0, 0));
    }
}
