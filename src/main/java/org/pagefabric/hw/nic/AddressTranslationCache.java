package org.pagefabric.hw.nic;

import java.util.List;
import org.pagefabric.hw.iommu.Iotlb;
import org.pagefabric.hw.iommu.IotlbLevelConfig;
import org.pagefabric.hw.iommu.ReplacementPolicy;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;

/**
 * A device's Address Translation Cache (PCIe ATS): translations the IOMMU returned to the NIC's
 * Translation Requests, keyed by (PASID, page), 4 KiB or 2 MiB. It has the IOMMU's IOTLB
 * structure (one set-associative LRU level), because it is a remote copy of the same entries;
 * only present entries are cached, and an Invalidate Request removes a range.
 */
final class AddressTranslationCache {
    private static final long HUGE_OFFSET_MASK = (1L << 21) - 1;
    private final Iotlb entries;

    AddressTranslationCache(AtsCosts costs, RandomStream random) {
        this.entries = new Iotlb(List.of(new IotlbLevelConfig(costs.atcEntries(), costs.atcWays(), ReplacementPolicy.LRU,
                costs.atcLookupPs())), random);
    }

    /** The cached entry of {@code va}'s page in {@code pasid}, or 0 on a miss. */
    long lookup(int pasid, long va) {
        return entries.lookup(pasid, va);
    }

    /** The cached entry of {@code va}'s page without touching the replacement order, or 0. */
    long peek(int pasid, long va) {
        var level = entries.level(0);
        int slot = level.find(Iotlb.key(pasid, va, false));
        if (slot < 0) {
            slot = level.find(Iotlb.key(pasid, va, true));
        }
        return slot < 0 ? 0 : level.value(slot);
    }

    /** Caches a present entry the IOMMU returned. */
    void fill(int pasid, long va, long pte) {
        entries.fill(pasid, va, pte);
    }

    /** Removes the entries of {@code pasid} overlapping {@code [va, va + length)}; how many were there. */
    int invalidate(int pasid, long va, long length) {
        return entries.invalidateRange(pasid, va, length);
    }

    /** Removes every entry; how many there were. */
    int invalidateAll() {
        int n = entries.level(0).size();
        entries.invalidateAll();
        return n;
    }

    /** Whether {@code pte} allows a read, or a write if {@code write}. */
    static boolean allows(long pte, boolean write) {
        return Pte.has(pte, Pte.PRESENT) && Pte.has(pte, write ? Pte.WRITABLE : Pte.READABLE);
    }

    /** The 4 KiB frame of {@code va} under entry {@code pte} (a 2 MiB entry maps consecutive frames). */
    static long frame(long pte, long va) {
        long f = Pte.frame(pte);
        if (Pte.has(pte, Pte.HUGE)) {
            f = (f & ~(HUGE_OFFSET_MASK >>> 12)) + ((va & HUGE_OFFSET_MASK) >>> 12);
        }
        return f;
    }
}
