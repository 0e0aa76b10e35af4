package org.pagefabric.hw.net;

import java.math.BigInteger;

/**
 * Cost parameters of one direction of a point-to-point link.
 *
 * @param latencyPs      propagation plus PHY latency from the last bit leaving the sender to the
 *                       last bit arriving at the receiver, in picoseconds (at least 0)
 * @param bytesPerSecond signalling rate available to packets, in bytes per second (positive):
 *                       a packet of {@code b} wire bytes occupies the link for
 *                       {@code ceil(b * 10^12 / bytesPerSecond)} picoseconds
 */
public record LinkParams(long latencyPs, long bytesPerSecond) {
    private static final long PS_PER_S = 1_000_000_000_000L;
    /** Largest byte count whose product with 10^12 fits a long. */
    private static final long EXACT_LIMIT = Long.MAX_VALUE / PS_PER_S;

    /** Validates the parameters. */
    public LinkParams {
        if (latencyPs < 0) {
            throw new IllegalArgumentException("link latencyPs must be >= 0, got " + latencyPs);
        }
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("link bytesPerSecond must be > 0, got " + bytesPerSecond);
        }
    }

    /**
     * Serialization time of {@code bytes} wire bytes in picoseconds, rounded up so that a link is
     * never faster than its rate. Exact integer arithmetic: every packet of the same size takes
     * the same time on every JVM.
     */
    public long serializationPs(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative byte count " + bytes);
        }
        if (bytes <= EXACT_LIMIT) {
            return Math.ceilDiv(bytes * PS_PER_S, bytesPerSecond);
        }
        // Beyond ~9 MB per call the product overflows; packets never get there, bulk estimates might.
        BigInteger[] qr = BigInteger.valueOf(bytes).multiply(BigInteger.valueOf(PS_PER_S))
                .divideAndRemainder(BigInteger.valueOf(bytesPerSecond));
        return qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
    }
}
