package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AddressMapTest {
    @Test
    void anUnmapInTheMiddleSplitsTheRangeAndKeepsBothEnds() {
        AddressMap m = new AddressMap();
        m.map(0x1000, 0x4000, 0x90000);
        m.unmap(0x2000, 0x1000);
        assertEquals(0x90000 + 0x800, m.translate(0x1800));
        assertEquals(-1, m.translate(0x2800));
        assertEquals(0x90000 + 0x3400, m.translate(0x4400));
        assertTrue(m.holds(0x3000, 0x2000));
        assertFalse(m.holds(0x1800, 0x1000), "the range now has a hole at 0x2000");
        List<long[]> pieces = m.pieces(0x1800, 0x2000);
        assertEquals(2, pieces.size());
        assertArrayEquals(new long[] {0x1800, 0x800, 0x90800}, pieces.get(0));
        assertArrayEquals(new long[] {0x3000, 0x800, 0x92000}, pieces.get(1));
    }

    @Test
    void aNewMappingReplacesWhatItOverlaps() {
        AddressMap m = new AddressMap();
        m.map(0x1000, 0x2000, 0x10000);
        m.map(0x2000, 0x2000, 0x50000);
        assertEquals(0x10000 + 0x800, m.translate(0x1800));
        assertEquals(0x50000 + 0x800, m.translate(0x2800));
        assertEquals(0x50000 + 0x1800, m.translate(0x3800));
        assertEquals(-1, m.translate(0x4000));
        assertTrue(m.pieces(0x5000, 0x100).isEmpty());
        m.clear();
        assertEquals(-1, m.translate(0x1800));
    }
}
