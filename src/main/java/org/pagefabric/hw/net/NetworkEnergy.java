package org.pagefabric.hw.net;

/**
 * The energy the network spent over a run: endpoint NICs and routers, each idle power over the
 * run's duration plus a dynamic part per byte and per packet crossing their ports (002 §5.2.5
 * derives NIC and router power from the bytes communicated). A NIC port carries what its node
 * sends and receives; a router carries each packet it forwards through two ports (in and out),
 * so a packet on a longer route costs more router energy. Loopback packets touch no port.
 *
 * @param nicJ         energy of all NICs, in joules
 * @param routerJ      energy of all routers, in joules
 * @param seconds      duration of the run, in seconds
 * @param nicBytes     wire bytes through NIC ports (sent plus received)
 * @param nicPackets   packets through NIC ports (sent plus received)
 * @param routerBytes  wire bytes forwarded by routers (one count per router traversal)
 * @param routerPackets packets forwarded by routers (one count per router traversal)
 */
public record NetworkEnergy(double nicJ, double routerJ, double seconds, long nicBytes, long nicPackets,
                            long routerBytes, long routerPackets) {
    private static final double PS_PER_S = 1e12;

    /** The energy of {@code net} after {@code elapsedPs} picoseconds of run. */
    public static NetworkEnergy of(Network net, PowerParams power, long elapsedPs) {
        if (elapsedPs < 0) {
            throw new IllegalArgumentException("elapsed time must be >= 0, got " + elapsedPs);
        }
        double seconds = elapsedPs / PS_PER_S;
        long rBytes = 0;
        long rPackets = 0;
        for (Switch s : net.topology().switches()) {
            rBytes += s.forwardedBytes();
            rPackets += s.forwardedPackets();
        }
        Topology t = net.topology();
        double nic = t.nodeCount() * power.nicIdleW() * seconds
                + power.nicPerByteJ() * net.nicBytes() + power.nicPerPacketJ() * net.nicPackets();
        double router = t.switchPorts() * power.routerIdlePerPortW() * seconds
                + 2 * (power.routerPerByteJ() * rBytes + power.routerPerPacketJ() * rPackets);
        return new NetworkEnergy(nic, router, seconds, net.nicBytes(), net.nicPackets(), rBytes, rPackets);
    }

    /** Average power of all NICs over the run, in watts (0 for an empty run). */
    public double nicPowerW() {
        return seconds > 0 ? nicJ / seconds : 0;
    }

    /** Average power of all routers over the run, in watts (0 for an empty run). */
    public double routerPowerW() {
        return seconds > 0 ? routerJ / seconds : 0;
    }
}
