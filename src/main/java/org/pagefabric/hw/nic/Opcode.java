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
    ATOMIC_FETCH_AND_ADD;

    /** Whether the operation reads or writes the remote side's memory directly. */
    public boolean oneSided() {
        return this != SEND && this != RECV;
    }

    /** Whether the operation is an atomic. */
    public boolean atomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }
}
