package org.pagefabric.hw.profile.param;

import org.pagefabric.hw.profile.Parameter;

/** The host I/O bus between the NIC and the root complex (PCIe, or PCI / HyperTransport on older hosts). */
public final class PcieParameters {
    /** One-way latency of a transaction between the NIC and host memory. */
    public static final Parameter LATENCY = Parameter.time("pcie.latency",
            "One-way latency of a bus transaction between the NIC and the root complex.");
    /** Usable data rate of the bus in each direction. */
    public static final Parameter BANDWIDTH = Parameter.bandwidth("pcie.bandwidth",
            "Usable data rate of the host I/O bus in each direction, after line coding.");
    /** Largest payload of one write transaction. */
    public static final Parameter MAX_PAYLOAD = Parameter.size("pcie.max_payload",
            "Largest payload of one posted write (PCIe Max_Payload_Size).").powerOfTwo();
    /** Largest read a device may request in one transaction. */
    public static final Parameter MAX_READ_REQUEST = Parameter.size("pcie.max_read_request",
            "Largest read one request may ask for (PCIe Max_Read_Request_Size).").powerOfTwo();

    private PcieParameters() {
    }
}
