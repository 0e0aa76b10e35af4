package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.HostCosts;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.sim.Simulator;

/** Nested (two-stage) walks: their references and cost, host faults beneath them, host flushes. */
class NestedIommuTest {
    /** processing 5, walk access 70 per entry, context fetch 40, log write 30, invalidation 200. */
    private static final IommuCosts COSTS = new IommuCosts(5, 70, 40, 30, 200);
    private static final HostCosts HOST = new HostCosts(1_000, 2_000, 500);
    private final Simulator sim = new Simulator(3);

    private Iommu iommu() {
        return new Iommu(sim, "iommu", new IommuConfig(List.of(IotlbLevelConfig.fullyAssociative(16,
                ReplacementPolicy.LRU, 1)), null, 4, 8), COSTS);
    }

    private HostStage stage() {
        return new HostStage(1 << 16, 4, HOST, true, sim.statistics(), "vm");
    }

    @Test
    void aFourOverFourLevelWalkReadsTwentyFourEntriesAndAHitReadsNone() {
        Iommu native_ = iommu();
        native_.bind(1, new MapPageTable().map(0x7000, 0x123, MapPageTable.RW));
        long nativeMiss = native_.translate(1, 0x7000, false).costPs();

        Iommu nested = new Iommu(sim, "nested", new IommuConfig(List.of(IotlbLevelConfig.fullyAssociative(16,
                ReplacementPolicy.LRU, 1)), null, 4, 8), COSTS);
        nested.nest(stage());
        nested.bind(1, new MapPageTable().map(0x7000, 0x123, MapPageTable.RW));
        Translation miss = nested.translate(1, 0x7000, false);
        assertTrue(miss.ok());
        assertEquals(0x123, miss.frame(), "the data path keeps the guest frame; the machine frame is the host's");
        assertEquals(nativeMiss + (24 - 4) * 70, miss.costPs(), "4 guest levels x (4 host + 1) + 4 host = 24 reads");
        assertEquals(5 + 40 + 1, nested.translate(1, 0x7000, false).costPs(), "a hit costs what it costs natively");
    }

    @Test
    void aGuestFrameTheHostTookIsAHostFaultBeneathTheWalkAndTheHostFlushesCombinedEntries() {
        HostStage host = stage();
        Iommu iommu = iommu();
        iommu.nest(host);
        host.subscribeDevice(gfn -> iommu.invalidateAll());
        iommu.bind(1, new MapPageTable().map(0x7000, 0x123, MapPageTable.RW));
        long walk = iommu.translate(1, 0x7000, true).costPs();
        assertTrue(host.reclaim(0x123));
        assertEquals(1, host.reclaimed());
        Translation t = iommu.translate(1, 0x7000, true);
        assertEquals(4, t.levelsWalked(), "the host's flush made the next access walk again");
        assertEquals(walk + HOST.faultPs(), t.costPs(), "and the walk waited for the host fault");
        assertEquals(1, host.hostFaults());
        assertTrue(host.present(0x123));
    }

    @Test
    void aNotPresentGuestLeafReadsNoFinalHostWalk() {
        Iommu iommu = iommu();
        iommu.nest(stage());
        iommu.bind(1, new MapPageTable().missingLevels(2));
        Translation t = iommu.translate(1, 0x9000, false);
        assertEquals(Translation.FAULT, t.outcome());
        assertEquals(5 + 40 + 1 + 2 * 5 * 70 + 30, t.costPs(), "two guest levels, each behind four host reads");
    }
}
