package org.pagefabric.hw.net;

/**
 * Power inputs of the network, from the profile ({@code power.*}). A port is one end of a
 * full-duplex cable at a NIC or a router; bytes and packets are charged per port they cross.
 *
 * @param nicIdleW           power of one endpoint NIC whatever it carries, in watts
 * @param nicPerByteJ        energy per wire byte a NIC sends or receives, in joules
 * @param nicPerPacketJ      energy per packet a NIC sends or receives, in joules
 * @param routerIdlePerPortW power of one router port whatever it carries, in watts
 * @param routerPerByteJ     energy per wire byte entering or leaving a router port, in joules
 * @param routerPerPacketJ   energy per packet entering or leaving a router port, in joules
 */
public record PowerParams(double nicIdleW, double nicPerByteJ, double nicPerPacketJ, double routerIdlePerPortW,
                          double routerPerByteJ, double routerPerPacketJ) {
    /** Validates that every value is finite and not negative. */
    public PowerParams {
        double[] all = {nicIdleW, nicPerByteJ, nicPerPacketJ, routerIdlePerPortW, routerPerByteJ, routerPerPacketJ};
        for (double v : all) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("power parameters must be finite and >= 0, got " + v);
            }
        }
    }
}
