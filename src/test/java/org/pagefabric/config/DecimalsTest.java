package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The numbers profiles, grids and {@code --set} accept, and the ones Java would read but users must not write. */
class DecimalsTest {
    @ParameterizedTest
    @CsvSource({"150, 150", "2.33, 2.33", "1e-3, 0.001", "-1, -1", "+.5, 0.5", "1_000, 1000", "4., 4",
            "1E+999, 1E+999"})
    void plainDecimalsAreRead(String text, String value) {
        assertNull(Decimals.problem(text));
        assertEquals(0, new BigDecimal(value).compareTo(Decimals.parse(text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {".nan", ".NaN", ".inf", "-.inf", "+.Inf", "NaN", "Infinity", "-Infinity"})
    void nonFiniteValuesAreRefused(String text) {
        assertTrue(Decimals.problem(text).contains("is not a finite number"), Decimals.problem(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0668", "\u0661\u0662", "1\u0663", "\uff18", "\u096a"})
    void digitsOtherThanAsciiAreRefused(String text) {
        // BigDecimal itself reads every one of these as a number
        assertNotNull(new BigDecimal(text));
        assertTrue(Decimals.problem(text).contains("only the ASCII digits 0-9"), Decimals.problem(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e1000", "1e2147483647", "1e-99999"})
    void exponentsBeyondThreeDigitsAreRefused(String text) {
        assertTrue(Decimals.problem(text).contains("has an exponent beyond 999"), Decimals.problem(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0x10", "1.5.2", "e5", ".", "-", "1e", "fast", "1 000"})
    void otherTextIsNotANumber(String text) {
        assertTrue(Decimals.problem(text).contains("is not a number"), Decimals.problem(text));
        assertThrows(IllegalArgumentException.class, () -> Decimals.parse(text));
    }

    @Test
    void aMillionDigitsAreRefusedWithoutParsingThem() {
        String digits = "9".repeat(1_000_000);
        String problem = Decimals.problem(digits);
        assertTrue(problem.contains("is longer than 100 characters"), problem);
        assertTrue(problem.length() < 200, "the message quotes an abbreviation, not the digits");
    }
}
