package org.pagefabric.hw.nic;

/** Work-request operations, as in verbs. */
public enum Opcode {
    /** One-sided write of local data to remote memory. */
    RDMA_WRITE,
    /** One-sided read of remote memory into local memory. */
    RDMA_READ,
    /** Two-sided send, consuming a receive posted at the target. */
    SEND,
    /** A receive buffer for a later send. */
    RECV,
    /** 8-byte atomic compare-and-swap on remote memory; the old value lands locally. */
    ATOMIC_CMP_AND_SWP,
    /** 8-byte atomic fetch-and-add on remote memory; the old value lands locally. */
    ATOMIC_FETCH_AND_ADD,
    /**
     * Binds a type-2 memory window to a region ({@code IBV_WR_BIND_MW}): executed by the NIC in
     * send-queue order, nothing goes on the wire.
     */
    BIND_MW,
    /** Invalidates a memory window's remote key ({@code IBV_WR_LOCAL_INV}): executed in send-queue order. */
    LOCAL_INV;

    /** Whether the operation reads or writes the remote side's memory directly. */
    public boolean oneSided() {
        return this != SEND && this != RECV && !local();
    }

    /** Whether the NIC executes the request itself, with nothing sent to the peer. */
    public boolean local() {
        return this == BIND_MW || this == LOCAL_INV;
    }

    /** Whether the operation is an atomic. */
    public boolean atomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }
}
