package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;

class TranslationTableTest {
    @Test
    void metadataGrowsWithMappedPagesNotWithTheRange() {
        TranslationTable t = new TranslationTable();
        assertEquals(0, t.metadataBytes());
        // Ten pages scattered over the whole 128 TiB space: ten chunks, not terabytes.
        for (int i = 0; i < 10; i++) {
            long page = (TranslationTable.MAX_PAGES / 10) * i + 3;
            t.set(page, Pte.withFrame(Pte.PRESENT | Pte.WRITABLE, 100 + i));
        }
        assertEquals(10, t.presentEntries());
        assertEquals(10 * 512 * 8, t.metadataBytes());
        // Clearing an absent entry allocates nothing.
        t.set(12345678, 0);
        assertEquals(10 * 512 * 8, t.metadataBytes());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void randomSetsAndZapsMatchAMap(long seed) {
        RandomStream r = new RandomStream(seed);
        TranslationTable t = new TranslationTable();
        Map<Long, Long> model = new HashMap<>();
        for (int op = 0; op < 5000; op++) {
            long page = r.nextLong(1 << 16);
            if (r.nextInt(10) < 7) {
                long e = Pte.withFrame(Pte.PRESENT, 1 + r.nextLong(1 << 20));
                t.set(page, e);
                model.put(page, e);
            } else {
                long n = 1 + r.nextLong(1000);
                long expected = model.keySet().stream().filter(p -> p >= page && p < page + n).count();
                assertEquals(expected, t.zap(page, n));
                model.keySet().removeIf(p -> p >= page && p < page + n);
            }
            assertEquals(model.size(), t.presentEntries());
        }
        for (long p = 0; p < (1 << 16); p++) {
            assertEquals(model.getOrDefault(p, 0L), t.get(p), "page " + p);
        }
    }

    @Test
    void aSmallRegionTakesMetadataForItsOwnPagesOnly() {
        TranslationTable one = new TranslationTable(1);
        assertEquals(8, one.metadataBytes(), "one page, one entry");
        one.set(0, Pte.withFrame(Pte.PRESENT, 7));
        assertEquals(1, one.presentEntries());
        assertEquals(7, Pte.frame(one.get(0)));
        assertEquals(0, one.get(3), "beyond the region: no entry");
        assertThrows(IllegalArgumentException.class, () -> one.set(1, Pte.PRESENT));
        assertEquals(1, one.zap(0, 10));
        assertEquals(0, one.presentEntries());
        TranslationTable big = new TranslationTable(TranslationTable.DENSE_MAX_PAGES + 1);
        assertEquals(0, big.metadataBytes(), "a large region stays sparse until mapped");
    }

    @Test
    void pagesOutsideTheSpaceAreRefused() {
        TranslationTable t = new TranslationTable();
        assertThrows(IllegalArgumentException.class, () -> t.get(-1));
        assertThrows(IllegalArgumentException.class, () -> t.set(TranslationTable.MAX_PAGES, 1));
        assertTrue(t.get(TranslationTable.MAX_PAGES - 1) == 0);
    }
}
