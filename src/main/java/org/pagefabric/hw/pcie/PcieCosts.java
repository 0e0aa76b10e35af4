package org.pagefabric.hw.pcie;

/**
 * The parameters of a PCIe link between a device (the NIC) and the host's root complex.
 *
 * @param bytesPerSecond      usable bandwidth of one direction after line encoding (e.g.
 *                            128b/130b) and data-link overhead (ACK and flow-control DLLPs)
 * @param latencyPs           one-way latency of a TLP through the link: PHY, data link layer,
 *                            flight and switch hops, excluding serialization
 * @param tlpOverheadBytes    bytes each TLP adds to its payload on the wire: header, sequence
 *                            number, LCRC and framing; a read request is this overhead alone
 * @param maxPayloadBytes     maximum payload size (MPS) of a write or a read completion; a
 *                            power of two
 * @param maxReadRequestBytes maximum read request size (MRRS); a power of two
 * @param hostCompleterPs     from a read request's arrival at the root complex to its first
 *                            completion leaving (host memory access)
 * @param deviceCompleterPs   from an MMIO read request's arrival at the device to its
 *                            completion leaving (register access)
 */
public record PcieCosts(long bytesPerSecond, long latencyPs, int tlpOverheadBytes, int maxPayloadBytes,
        int maxReadRequestBytes, long hostCompleterPs, long deviceCompleterPs) {
    /** Validates the parameters. */
    public PcieCosts {
        if (bytesPerSecond <= 0 || bytesPerSecond > 1_000_000_000_000_000L) {
            throw new IllegalArgumentException("bytesPerSecond must be in 1..1e15, got " + bytesPerSecond);
        }
        if (latencyPs < 0 || hostCompleterPs < 0 || deviceCompleterPs < 0) {
            throw new IllegalArgumentException("latencyPs, hostCompleterPs and deviceCompleterPs must not be negative");
        }
        if (tlpOverheadBytes < 0) {
            throw new IllegalArgumentException("tlpOverheadBytes must not be negative, got " + tlpOverheadBytes);
        }
        requirePowerOfTwo("maxPayloadBytes", maxPayloadBytes);
        requirePowerOfTwo("maxReadRequestBytes", maxReadRequestBytes);
    }

    private static void requirePowerOfTwo(String field, int v) {
        if (v <= 0 || Integer.bitCount(v) != 1) {
            throw new IllegalArgumentException(field + " must be a positive power of two, got " + v);
        }
    }

    /**
     * Picoseconds to serialize {@code bytes} on one direction (rounded up): what
     * {@link PcieLink#serializationPs} charges.
     */
    public long serializationPs(long bytes) {
        return Math.ceilDiv(bytes * femtosPerByte(), 1000L);
    }

    /** Femtoseconds per byte, the fixed-point rate used to time serialization without overflow. */
    long femtosPerByte() {
        return Math.ceilDiv(1_000_000_000_000_000L, bytesPerSecond);
    }
}
