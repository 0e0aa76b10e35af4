package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** The host I/O bus between the NIC and the root complex (PCIe, or PCI / HyperTransport on older hosts). */
public final class PcieParameters {
    /** One-way latency of a transaction between the NIC and host memory. */
    public static final Parameter LATENCY = Parameter.time("pcie.latency",
            "One-way latency of a bus transaction between the NIC and the root complex.");
    /** A measured device read round trip, from which the host completer is derived (0: not measured). */
    public static final Parameter ROUND_TRIP = Parameter.time("pcie.round_trip",
            "Measured round trip of a 64 B device read of host memory on an idle bus, from the request's issue"
                    + " to its completion's arrival; where given (not 0), pcie.host_completer is what remains of it"
                    + " after two pcie.latency and the bus's serialization of the request and the completion.");
    /** Usable data rate of the bus in each direction. */
    public static final Parameter BANDWIDTH = Parameter.bandwidth("pcie.bandwidth",
            "Usable data rate of the host I/O bus in each direction, after line coding.");
    /** Largest payload of one write transaction. */
    public static final Parameter MAX_PAYLOAD = Parameter.size("pcie.max_payload",
            "Largest payload of one posted write (PCIe Max_Payload_Size).").powerOfTwo()
            .between("128 B", "4 KiB");
    /** Largest read a device may request in one transaction. */
    public static final Parameter MAX_READ_REQUEST = Parameter.size("pcie.max_read_request",
            "Largest read one request may ask for (PCIe Max_Read_Request_Size).").powerOfTwo()
            .between("128 B", "4 KiB");

    /** Bytes each transaction adds to its payload on the wire. */
    public static final Parameter TLP_OVERHEAD = Parameter.size("pcie.tlp_overhead",
            "Bytes each bus transaction adds to its payload (header, sequence number, CRC, framing); a read request is this alone.")
            .between("0 B", "256 B");
    /** Host memory access behind a device's read request. */
    public static final Parameter HOST_COMPLETER = Parameter.time("pcie.host_completer",
            "From a device read request reaching the root complex to its first completion leaving (host memory access);"
                    + " derived from pcie.round_trip where a profile gives that, and then not read.");
    /** Register access behind a processor's MMIO read. */
    public static final Parameter DEVICE_COMPLETER = Parameter.time("pcie.device_completer",
            "From a processor's MMIO read request reaching the device to its completion leaving (register access).");

    private PcieParameters() {
    }
}
