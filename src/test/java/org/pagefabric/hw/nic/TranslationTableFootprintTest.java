package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.Pte;

/**
 * The footprint 001's "Future work" asks for: translation metadata sized by what is mapped, not by
 * the region. Linux's ib_umem_odp holds 16 B per page of the region (pfn_list and dma_list): 4 GiB
 * for a 1 TiB region before anything is mapped.
 */
class TranslationTableFootprintTest {
    private static final long TIB_PAGES = (1L << 40) >>> 12;

    @Test
    void aTebibyteRegionHoldsOneChunkPerMappedBlockNotSixteenBytesPerPage() {
        TranslationTable t = new TranslationTable(TIB_PAGES);
        assertEquals(0, t.metadataBytes(), "nothing mapped, nothing held");
        long[] pages = {0, TIB_PAGES / 2, TIB_PAGES - 1};
        for (long p : pages) {
            t.set(p, Pte.withFrame(Pte.PRESENT | Pte.READABLE, 7));
        }
        t.set(1, Pte.withFrame(Pte.PRESENT | Pte.READABLE, 8));
        assertEquals(4, t.presentEntries());
        assertEquals(3 * 512 * 8, t.metadataBytes(), "three 512-entry chunks");
        long linux = TIB_PAGES * 16;
        assertEquals(4L << 30, linux, "pfn_list + dma_list for 2^28 pages");
    }
}
