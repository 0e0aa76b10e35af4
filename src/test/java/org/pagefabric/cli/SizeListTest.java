package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --sizes}: what parses, and what is refused in one message rather than run as something else. */
class SizeListTest {
    @Test
    void rangesDoubleAndListsKeepTheirOrder() {
        assertEquals(List.of(8L, 16L, 32L, 64L), SizeList.parse("8..64"));
        assertEquals(List.of(1024L, 2048L, 4096L), SizeList.parse("1K..4KiB"));
        assertEquals(List.of(8L, 4096L, 1L << 20), SizeList.parse("8, 4K,1M"));
        assertEquals(List.of(1L << 30), SizeList.parse("1GB"));
    }

    @Test
    void aRangeUpToTheLargestSizesEndsWithoutOverflow() {
        List<Long> sizes = SizeList.parse("1..4611686018427387904");
        assertEquals(63, sizes.size());
        assertEquals(1L << 62, sizes.get(62));
        assertEquals(63, SizeList.parse("1.." + Long.MAX_VALUE).size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"18014398509481985K", "9223372036854775808", "9999999999G", "99999999999999999999999"})
    void sizesPastLongAreRefusedNotWrapped(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SizeList.parse(text));
        assertTrue(e.getMessage().contains("larger than"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"٨", "８", "1٨K", "0", "-8", "", ",", "8,,16", "x", "8..", "..8", "8..4..16", "+8", "8 K B B"})
    void nonSizesAreRefusedNamingTheOption(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SizeList.parse(text));
        assertTrue(e.getMessage().startsWith("--sizes"), e.getMessage());
    }

    @Test
    void aListHasABoundedLength() {
        String many = String.join(",", java.util.Collections.nCopies(SizeList.MAX_SIZES + 1, "8"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SizeList.parse(many));
        assertTrue(e.getMessage().contains("at most " + SizeList.MAX_SIZES), e.getMessage());
        assertEquals(SizeList.MAX_SIZES, SizeList.parse(many.substring(2)).size());
    }
}
