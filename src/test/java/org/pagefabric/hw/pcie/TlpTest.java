package org.pagefabric.hw.pcie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Splitting transfers into TLPs around the transaction size. */
class TlpTest {
    @Test
    void countAroundTheTransactionSize() {
        assertEquals(0, Tlp.count(0, 0, 256));
        assertEquals(1, Tlp.count(0, 1, 256));
        assertEquals(1, Tlp.count(0, 255, 256));
        assertEquals(1, Tlp.count(0, 256, 256));
        assertEquals(2, Tlp.count(0, 257, 256));
        assertEquals(16, Tlp.count(0, 4096, 256));
        assertEquals(17, Tlp.count(0, 4097, 256));
    }

    @Test
    void unalignedTransfersTakeOneMoreTlpAtTheBlockBoundary() {
        assertEquals(2, Tlp.count(1, 256, 256));
        assertEquals(2, Tlp.count(255, 2, 256));
        assertEquals(3, Tlp.count(100, 512, 256)); // 156 + 256 + 100
        assertEquals(100, Tlp.lastPayload(100, 512, 256));
        assertEquals(1, Tlp.lastPayload(0, 257, 256));
        assertEquals(256, Tlp.lastPayload(0, 512, 256));
        assertEquals(10, Tlp.lastPayload(3, 10, 256));
    }

    @Test
    void wireBytesAddOneOverheadPerTlp() {
        assertEquals(256 + 24, Tlp.wireBytes(0, 256, 256, 24));
        assertEquals(257 + 48, Tlp.wireBytes(0, 257, 256, 24));
        assertEquals(0, Tlp.wireBytes(0, 0, 256, 24));
        assertThrows(IllegalArgumentException.class, () -> Tlp.count(-1, 1, 256));
    }
}
