package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.CpuCosts;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;

/** Translation costs, faults, the fault log and interrupt, the interceptor, invalidation. */
class IommuTest {
    /** processing 5, walk access 70 per level, context fetch 40, log write 30, invalidation 200. */
    private static final IommuCosts COSTS = new IommuCosts(5, 70, 40, 30, 200);
    private static final long L1 = 1;
    private static final long L2 = 10;

    private final Simulator sim = new Simulator(21);

    private static IommuConfig config(int faultLog) {
        return new IommuConfig(List.of(IotlbLevelConfig.fullyAssociative(128, ReplacementPolicy.LRU, L1),
                IotlbLevelConfig.parse("lru_a4", 2048, L2)), null, 4, faultLog);
    }

    private Iommu iommu(int faultLog) {
        return new Iommu(sim, "iommu", config(faultLog), COSTS);
    }

    @Test
    void walkCostsOneMemoryAccessPerLevelAndFillsTheIotlb() {
        Iommu iommu = iommu(8);
        MapPageTable pt = new MapPageTable().map(0x7000, 0x123, MapPageTable.RW)
                .mapHuge(0x4000_0000L, 0x800, MapPageTable.RW);
        iommu.bind(1, pt);
        Translation t = iommu.translate(1, 0x7abc, true);
        assertTrue(t.ok());
        assertEquals((0x123L << 12) | 0xabc, t.physicalAddress());
        assertEquals(0x123, t.frame());
        assertEquals(4, t.levelsWalked());
        assertEquals(-1, t.hitLevel());
        assertEquals(5 + 40 + L1 + L2 + 4 * 70, t.costPs());

        t = iommu.translate(1, 0x7000, false);
        assertEquals(0, t.hitLevel());
        assertEquals(0, t.levelsWalked());
        assertEquals(5 + 40 + L1, t.costPs());

        t = iommu.translate(1, 0x4012_3456L, false);
        assertEquals(3, t.levelsWalked(), "a 2 MiB leaf ends the walk a level earlier");
        assertEquals(5 + 40 + L1 + L2 + 3 * 70, t.costPs());
        assertEquals((0x800L << 12) + 0x12_3456L, t.physicalAddress());
        assertEquals(2L << 20, t.pageSize());
        assertEquals(2, iommu.misses());
        assertEquals(1, iommu.hits(0));
        assertEquals(2, iommu.walker().walks());
        assertEquals(7, iommu.walker().accesses());
        assertEquals(3, iommu.translations());
    }

    @Test
    void contextCacheMissesFetchTheContextOnce() {
        IommuConfig withCache = new IommuConfig(config(8).iotlbLevels(),
                IotlbLevelConfig.fullyAssociative(2, ReplacementPolicy.LRU, 2), 4, 8);
        Iommu iommu = new Iommu(sim, "iommu", withCache, COSTS);
        iommu.bind(1, new MapPageTable().map(0, 1, MapPageTable.RW));
        assertEquals(5 + 2 + 40 + L1 + L2 + 4 * 70, iommu.translate(1, 0, false).costPs());
        assertEquals(5 + 2 + L1, iommu.translate(1, 0, false).costPs());
        iommu.unbind(1);
        Translation t = iommu.translate(1, 0, false);
        assertEquals(FaultReason.NO_CONTEXT, t.fault());
        assertEquals(5 + 2 + 40 + 30, t.costPs(), "context miss, then the fault log write");
    }

    @Test
    void faultsSetTheBankRegistersAndAreLoggedUntilTheRingOverflows() {
        Iommu iommu = iommu(2);
        MapPageTable pt = new MapPageTable().map(0x1000, 7, Pte.PRESENT | Pte.READABLE);
        ContextBank bank = iommu.bind(9, pt);
        Translation t = iommu.translate(9, 0x5000, true);
        assertEquals(Translation.FAULT, t.outcome());
        assertEquals(FaultReason.NOT_PRESENT, t.fault());
        assertTrue(t.logged());
        assertEquals(5 + 40 + L1 + L2 + 4 * 70 + 30, t.costPs());
        assertTrue(bank.faultValid());
        assertEquals(0x5000, bank.faultAddress());
        assertTrue(bank.faultWrite());
        assertFalse(bank.multipleFaults());

        t = iommu.translate(9, 0x1000, true);
        assertEquals(FaultReason.WRITE_PROTECTED, t.fault());
        assertTrue(bank.multipleFaults());
        assertEquals(0x5000, bank.faultAddress(), "the registers keep the first fault");

        t = iommu.translate(9, 0x8000, false);
        assertFalse(t.logged(), "the two-entry ring is full");
        assertEquals(1, iommu.faultLog().overflows());
        assertEquals(2, iommu.faultLog().size());
        assertEquals(3, bank.faults());

        FaultRecord first = iommu.faultLog().poll();
        assertEquals(new FaultRecord(0, 9, 0x5000, true, FaultReason.NOT_PRESENT), first);
        assertEquals(FaultReason.WRITE_PROTECTED, iommu.faultLog().poll().reason());
        assertNull(iommu.faultLog().poll());
        bank.clearFault();
        assertFalse(bank.faultValid());
        assertTrue(iommu.translate(9, 0x1000, false).ok());
        assertTrue(iommu.translate(9, 0x9000, false).logged(), "drained: room again");
    }

    @Test
    void readsNeedRAndSwappedEntriesAreNotPresent() {
        Iommu iommu = iommu(8);
        MapPageTable pt = new MapPageTable().map(0x1000, 7, Pte.PRESENT | Pte.WRITABLE)
                .set(0x2000, Pte.withFrame(Pte.SWAPPED, 99));
        iommu.bind(1, pt);
        assertEquals(FaultReason.READ_PROTECTED, iommu.translate(1, 0x1000, false).fault());
        assertTrue(iommu.translate(1, 0x1000, true).ok());
        assertEquals(FaultReason.NOT_PRESENT, iommu.translate(1, 0x2000, false).fault());
    }

    @Test
    void loggedFaultInterruptsTheConfiguredCore() {
        Cpu cpu = new Cpu(sim, "cpu", 4, new CpuCosts(0, 100, 1_000, 0, 10));
        Iommu iommu = iommu(1);
        List<String> handled = new ArrayList<>();
        int irq = cpu.interrupts().register("smmu-fault", 2, (type, pdid) -> {
            handled.add(pdid + "@" + sim.now());
            return 500;
        }, null, 0);
        iommu.connectFaultInterrupt(cpu.interrupts(), irq);
        iommu.bind(3, new MapPageTable());
        Translation t = iommu.translate(3, 0x1000, true);
        long cost = t.costPs();
        iommu.translate(3, 0x2000, true); // overflows the one-entry log: no interrupt
        sim.run();
        assertEquals(List.of("3@" + (cost + 1_000)), handled);
        assertEquals(1, cpu.core(2).interruptsTaken());
        assertEquals(0, cpu.core(0).interruptsTaken());
        assertEquals(1, cpu.interrupts().raised(irq));
    }

    @Test
    void interceptorSeesThePteOnEveryTranslationAndMayAbsorb() {
        Iommu iommu = iommu(8);
        long activePut = Pte.withIuid(Pte.withFrame(Pte.PRESENT | Pte.READABLE | Pte.WL | Pte.WLD | Pte.E, 5), 17);
        MapPageTable pt = new MapPageTable().set(0x1000, activePut).map(0x2000, 6, MapPageTable.RW);
        iommu.bind(1, pt);
        List<String> seen = new ArrayList<>();
        iommu.setInterceptor((bank, va, write, pte, fault, translation) -> {
            seen.add(Long.toHexString(va) + " iuid=" + Pte.iuid(pte) + " " + fault);
            if (write && fault == FaultReason.WRITE_PROTECTED && Pte.has(pte, Pte.WL | Pte.E)) {
                translation.addCost(25);
                return AccessInterceptor.ABSORB;
            }
            return AccessInterceptor.PROCEED;
        });
        Translation t = iommu.translate(1, 0x1000, true);
        assertEquals(Translation.ABSORBED, t.outcome());
        assertEquals(5 + 40 + L1 + L2 + 4 * 70 + 25, t.costPs());
        // Absorbed, not faulted: the entry stays cached and the next put hits.
        t = iommu.translate(1, 0x1008, true);
        assertEquals(Translation.ABSORBED, t.outcome());
        assertEquals(0, t.hitLevel());
        assertTrue(iommu.translate(1, 0x1010, false).ok());
        assertTrue(iommu.translate(1, 0x2000, true).ok());
        assertEquals(List.of("1000 iuid=17 WRITE_PROTECTED", "1008 iuid=17 WRITE_PROTECTED", "1010 iuid=17 null",
                "2000 iuid=0 null"), seen);
        assertEquals(0, iommu.faults());
        assertEquals(0, iommu.faultLog().size());
    }

    @Test
    void staleTranslationSurvivesUntilInvalidated() {
        Iommu iommu = iommu(8);
        MapPageTable pt = new MapPageTable().map(0x1000, 10, MapPageTable.RW);
        iommu.bind(1, pt);
        assertEquals(10, iommu.translate(1, 0x1000, false).frame());
        pt.map(0x1000, 20, MapPageTable.RW); // the kernel remaps without a shootdown...
        assertEquals(10, iommu.translate(1, 0x1000, false).frame(), "...so the IOTLB is stale");
        assertEquals(200, iommu.invalidatePage(1, 0x1000));
        assertEquals(20, iommu.translate(1, 0x1000, false).frame());
    }

    @Test
    void faultingEntryIsDroppedSoTheRetryWalksAgain() {
        Iommu iommu = iommu(8);
        MapPageTable pt = new MapPageTable().map(0x1000, 10, Pte.PRESENT | Pte.READABLE | Pte.COW);
        iommu.bind(1, pt);
        assertTrue(iommu.translate(1, 0x1000, false).ok());
        assertEquals(FaultReason.WRITE_PROTECTED, iommu.translate(1, 0x1000, true).fault());
        pt.map(0x1000, 11, MapPageTable.RW); // the copy-on-write break
        Translation t = iommu.translate(1, 0x1000, true);
        assertTrue(t.ok());
        assertEquals(11, t.frame());
        assertEquals(4, t.levelsWalked());
    }

    /** Remaps with shootdowns never let a translation return a frame the table no longer maps. */
    @ParameterizedTest
    @ValueSource(strings = {"lru_a1", "lru_a2", "rnd_a4", "lru_af", "rnd_af"})
    void remappedPagesAreNeverTranslatedToTheirOldFrame(String spec) {
        IommuConfig cfg = new IommuConfig(List.of(IotlbLevelConfig.parse(spec, 16, 1),
                IotlbLevelConfig.parse(spec, 64, 5)), null, 2, 1024);
        Iommu iommu = new Iommu(sim, "iommu", cfg, COSTS);
        MapPageTable pt = new MapPageTable();
        long[] frameOf = new long[128];
        for (int p = 0; p < 128; p++) {
            frameOf[p] = 1000 + p;
            pt.map((long) p << 12, frameOf[p], MapPageTable.RW);
        }
        iommu.bind(4, pt);
        RandomStream r = new RandomStream(99);
        long nextFrame = 5000;
        for (int i = 0; i < 20_000; i++) {
            int page = (int) r.nextLong(128);
            int op = r.nextInt(10);
            if (op == 0) {
                frameOf[page] = nextFrame++;
                pt.map((long) page << 12, frameOf[page], MapPageTable.RW);
                iommu.invalidatePage(4, (long) page << 12);
            } else if (op == 1) {
                int n = 1 + r.nextInt(100);
                for (int q = page; q < Math.min(128, page + n); q++) {
                    frameOf[q] = nextFrame++;
                    pt.map((long) q << 12, frameOf[q], MapPageTable.RW);
                }
                iommu.invalidateRange(4, (long) page << 12, (long) n << 12);
            } else if (op == 2) {
                frameOf[page] = -1;
                pt.unmap((long) page << 12);
                iommu.invalidatePage(4, (long) page << 12);
            } else {
                Translation t = iommu.translate(4, ((long) page << 12) | r.nextLong(4096), r.nextBoolean(0.5));
                if (frameOf[page] < 0) {
                    assertEquals(FaultReason.NOT_PRESENT, t.fault(), "access " + i);
                } else {
                    assertEquals(frameOf[page], t.frame(), "access " + i + " page " + page);
                }
            }
        }
        assertTrue(iommu.hits(0) > 0 && iommu.misses() > 0);
    }

    @Test
    void bindingIsLimitedToTheContextBanks() {
        Iommu iommu = iommu(8);
        ContextBank b = iommu.bind(1, new MapPageTable());
        assertSame(b, iommu.bank(1));
        assertThrows(IllegalStateException.class, () -> iommu.bind(1, new MapPageTable()));
        iommu.bind(2, new MapPageTable());
        iommu.bind(3, new MapPageTable());
        iommu.bind(4, new MapPageTable());
        assertThrows(IllegalStateException.class, () -> iommu.bind(5, new MapPageTable()));
        iommu.unbind(2);
        assertNotEquals(null, iommu.bind(5, new MapPageTable()));
        assertThrows(IllegalStateException.class, () -> iommu.unbind(2));
        assertThrows(IllegalArgumentException.class, () -> iommu.bind(Iotlb.MAX_PDID + 1, new MapPageTable()));
    }

    @Test
    void domainInvalidationAndUnbindDropTranslations() {
        Iommu iommu = iommu(8);
        iommu.bind(1, new MapPageTable().map(0, 1, MapPageTable.RW));
        iommu.bind(2, new MapPageTable().map(0, 2, MapPageTable.RW));
        iommu.translate(1, 0, false);
        iommu.translate(2, 0, false);
        iommu.invalidateDomain(1);
        assertEquals(-1, iommu.translate(1, 0, false).hitLevel());
        assertEquals(0, iommu.translate(2, 0, false).hitLevel());
        iommu.invalidateAll();
        assertEquals(-1, iommu.translate(2, 0, false).hitLevel());
    }
}
