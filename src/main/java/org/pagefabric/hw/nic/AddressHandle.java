package org.pagefabric.hw.nic;

/**
 * Where an unreliable datagram goes, as verbs' address handle plus remote QPN: a node and a
 * queue pair number there. A UD send names one per work request.
 *
 * @param node the destination node
 * @param qpn  the destination UD queue pair's number
 */
public record AddressHandle(int node, int qpn) {
    /** Validates the address. */
    public AddressHandle {
        if (node < 0 || qpn < 0) {
            throw new IllegalArgumentException("address handle needs a node and a qpn >= 0, got " + node + ", " + qpn);
        }
    }

    /**
     * The sender of a datagram, from its UD receive completion (whose {@link WorkCompletion#value()}
     * carries {@code node << 32 | qpn}, as {@code ibv_wc} carries {@code slid} and {@code src_qp}).
     */
    public static AddressHandle sourceOf(WorkCompletion wc) {
        if (wc.opcode() != Opcode.RECV) {
            throw new IllegalArgumentException("only receive completions name a source, not " + wc.opcode());
        }
        return new AddressHandle((int) (wc.value() >>> 32), (int) wc.value());
    }

    /** An address packed as a completion's value, {@code node << 32 | qpn}, without an object per datagram. */
    static long pack(int node, int qpn) {
        return (long) node << 32 | (qpn & 0xFFFF_FFFFL);
    }
}
