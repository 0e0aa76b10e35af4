package org.pagefabric.hw.iommu;

import java.util.HashMap;
import java.util.Map;
import org.pagefabric.hw.os.Pte;

/** A test page table: maps from page number to PTE word, 4 KiB and 2 MiB, four levels. */
final class MapPageTable implements ProcessPageTable {
    static final long RW = Pte.PRESENT | Pte.WRITABLE | Pte.READABLE;

    private final Map<Long, Long> small = new HashMap<>();
    private final Map<Long, Long> huge = new HashMap<>();
    /** Levels a walk reads when no leaf exists (an upper level is empty). */
    private int missingLevels = 4;

    /** Maps the 4 KiB page of {@code va} to {@code frame} with {@code bits}. */
    MapPageTable map(long va, long frame, long bits) {
        small.put(va >>> 12, Pte.withFrame(bits, frame));
        return this;
    }

    /** Maps the 2 MiB page of {@code va} to the 512 frames from {@code frame}. */
    MapPageTable mapHuge(long va, long frame, long bits) {
        huge.put(va >>> 21, Pte.withFrame(bits | Pte.HUGE, frame));
        return this;
    }

    /** Sets a raw entry for the 4 KiB page of {@code va}. */
    MapPageTable set(long va, long pte) {
        small.put(va >>> 12, pte);
        return this;
    }

    MapPageTable unmap(long va) {
        small.remove(va >>> 12);
        huge.remove(va >>> 21);
        return this;
    }

    MapPageTable missingLevels(int levels) {
        missingLevels = levels;
        return this;
    }

    @Override
    public long leafEntry(long va) {
        Long h = huge.get(va >>> 21);
        if (h != null) {
            return h;
        }
        Long s = small.get(va >>> 12);
        return s == null ? 0 : s;
    }

    @Override
    public int levelsWalked(long va) {
        if (huge.containsKey(va >>> 21)) {
            return 3;
        }
        return small.containsKey(va >>> 12) ? 4 : missingLevels;
    }
}
