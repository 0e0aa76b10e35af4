package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.Pte;

/**
 * The footprint 001's "Future work" asks for: translation metadata sized by what is mapped, not by
 * the region. Linux's ib_umem_odp holds 16 B per page of the region (pfn_list and dma_list): 4 GiB
 * for a 1 TiB region before anything is mapped. A sparse table is only worth that saving if every
 * entry still reads back as written, so the pages here are chosen to share a chunk, or a
 * directory slot under different top-level indices.
 */
class TranslationTableFootprintTest {
    private static final long TIB_PAGES = (1L << 40) >>> 12;
    private static final long RO = Pte.PRESENT | Pte.READABLE;

    @Test
    void aTebibyteRegionHoldsOneChunkPerMappedBlockNotSixteenBytesPerPage() {
        TranslationTable t = new TranslationTable(TIB_PAGES);
        assertEquals(0, t.metadataBytes(), "nothing mapped, nothing held");
        // Page 0 and page 2^27 differ only in their top-level index; page 1 shares page 0's chunk.
        long[] pages = {0, TIB_PAGES / 2, TIB_PAGES - 1, 1};
        for (int i = 0; i < pages.length; i++) {
            t.set(pages[i], Pte.withFrame(RO, 7 + i));
        }
        assertEquals(4, t.presentEntries());
        assertEquals(3 * 512 * 8, t.metadataBytes(), "three 512-entry chunks");
        for (int i = 0; i < pages.length; i++) {
            assertEquals(7 + i, Pte.frame(t.get(pages[i])), "page " + pages[i] + " reads back its own frame");
        }
        assertEquals(0, t.get(2), "an unset entry of a chunk that exists");
        assertEquals(0, t.get(TIB_PAGES / 4), "an entry of a chunk that was never made");
        assertTrue(t.metadataBytes() * 100_000 < TIB_PAGES * 16,
                t.metadataBytes() + " B against ib_umem_odp's 16 B per page of the region");

        t.set(1, Pte.withFrame(RO, 99));
        assertEquals(4, t.presentEntries(), "replacing a present entry adds none");
        assertEquals(99, Pte.frame(t.get(1)));
        assertEquals(2, t.zap(0, 2), "the invalidation clears pages 0 and 1");
        assertEquals(0, t.get(0));
        assertEquals(0, t.get(1));
        assertEquals(8, Pte.frame(t.get(TIB_PAGES / 2)), "the entry in another top-level slot is untouched");
        assertEquals(2, t.presentEntries());
        assertEquals(2, t.zap(0, TIB_PAGES), "a whole-region invalidation finds the two left");
        assertEquals(0, t.presentEntries());
    }

    @Test
    void aSmallRegionHoldsExactlyItsPages() {
        TranslationTable t = new TranslationTable(3);
        assertEquals(3 * 8, t.metadataBytes(), "one word per page of the region");
        t.set(2, Pte.withFrame(RO, 5));
        assertEquals(5, Pte.frame(t.get(2)));
        assertEquals(1, t.presentEntries());
        assertThrows(IllegalArgumentException.class, () -> t.set(3, Pte.withFrame(RO, 6)),
                "a page past the region's end");
    }
}
