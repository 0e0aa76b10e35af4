package org.pagefabric.reg.part;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The page ranges of PIO, PI4 and PIA for one fault. */
class PageInTest {
    private static final long P = 4096;
    private static final int BLOCK = 16384;
    private static final long MSG = 0x10000000L;

    @Test
    void oneBlockAllTheRest() {
        long fault = MSG + BLOCK + P + 100; // second page of the second block
        long len = 10 * P;
        assertEquals(MSG + BLOCK + P, PageIn.ONE.rangeStart(fault, MSG, 1, BLOCK));
        assertEquals(MSG + BLOCK + 2 * P, PageIn.ONE.rangeEnd(fault, MSG, len, 1, BLOCK));
        assertEquals(MSG + BLOCK, PageIn.BLOCK.rangeStart(fault, MSG, 1, BLOCK));
        assertEquals(MSG + 2 * BLOCK, PageIn.BLOCK.rangeEnd(fault, MSG, len, 1, BLOCK));
        assertEquals(MSG + BLOCK + P, PageIn.ALL.rangeStart(fault, MSG, 1, BLOCK));
        assertEquals(MSG + len, PageIn.ALL.rangeEnd(fault, MSG, len, 1, BLOCK));
    }

    @Test
    void aShortLastBlockEndsWithTheTransfer() {
        long len = BLOCK + 2 * P + 8; // the second block holds 3 pages, the last one partly
        long fault = MSG + BLOCK;
        assertEquals(MSG + BLOCK + 3 * P, PageIn.BLOCK.rangeEnd(fault, MSG, len, 1, BLOCK));
        assertEquals(MSG + BLOCK + 3 * P, PageIn.ALL.rangeEnd(fault, MSG, len, 1, BLOCK));
    }
}
