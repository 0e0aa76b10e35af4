package org.pagefabric.config;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * A data rate, kept as an exact decimal number of bytes per second so that {@code 17 Gbps}
 * (2.125e9 B/s) or {@code 1 bps} (0.125 B/s) lose nothing; transfer times are computed from it
 * in integer picoseconds.
 *
 * @param bytesPerSecond the rate in bytes per second, greater than zero
 */
public record Bandwidth(BigDecimal bytesPerSecond) {
    private static final BigDecimal PS_PER_SECOND = BigDecimal.valueOf(1_000_000_000_000L);

    /** Checks that the rate is positive. */
    public Bandwidth {
        if (bytesPerSecond.signum() <= 0) {
            throw new IllegalArgumentException("a bandwidth must be greater than zero: " + bytesPerSecond);
        }
    }

    /** Bytes per second, rounded down to a whole number. */
    public long bytesPerSecondFloor() {
        return bytesPerSecond.setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /** Picoseconds per byte, to 34 significant digits ({@code 10 Gbps} is exactly 800). */
    public BigDecimal psPerByte() {
        return PS_PER_SECOND.divide(bytesPerSecond, MathContext.DECIMAL128).stripTrailingZeros();
    }

    /** Time to serialise {@code bytes} at this rate, in picoseconds, rounded up. */
    public long transferTimePs(long bytes) {
        return BigDecimal.valueOf(bytes).multiply(PS_PER_SECOND)
                .divide(bytesPerSecond, 0, RoundingMode.CEILING).longValueExact();
    }

    @Override
    public String toString() {
        return bytesPerSecond.stripTrailingZeros().toPlainString() + " B/s";
    }
}
