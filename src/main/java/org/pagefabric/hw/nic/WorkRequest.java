package org.pagefabric.hw.nic;

/**
 * A work request posted to a queue pair. One scatter/gather entry (local address, length,
 * lkey) is enough for every workload in the seeds; the remote address and rkey are for
 * one-sided operations, the operands for atomics.
 *
 * @param wrId          the caller's identifier, returned in the completion
 * @param opcode        what to do
 * @param localAddress  local virtual address
 * @param length        bytes (8 for atomics)
 * @param lkey          local key of the region holding the local buffer
 * @param remoteAddress remote virtual address (one-sided operations)
 * @param rkey          remote key (one-sided operations)
 * @param compareOrAdd  compare value (CAS) or addend (FAA)
 * @param swap          swap value (CAS)
 * @param signaled      whether a successful completion is reported (errors always are)
 */
public record WorkRequest(long wrId, Opcode opcode, long localAddress, long length, int lkey, long remoteAddress,
                          int rkey, long compareOrAdd, long swap, boolean signaled) {
    /** Validates the request's shape (not its keys: those are checked by the NIC, as errors). */
    public WorkRequest {
        if (opcode == null) {
            throw new IllegalArgumentException("opcode missing");
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        if (opcode.atomic() && length != 8) {
            throw new IllegalArgumentException("atomics are 8 bytes, not " + length);
        }
    }

    /** An RDMA write. */
    public static WorkRequest write(long wrId, long local, long length, int lkey, long remote, int rkey) {
        return new WorkRequest(wrId, Opcode.RDMA_WRITE, local, length, lkey, remote, rkey, 0, 0, true);
    }

    /** An RDMA read. */
    public static WorkRequest read(long wrId, long local, long length, int lkey, long remote, int rkey) {
        return new WorkRequest(wrId, Opcode.RDMA_READ, local, length, lkey, remote, rkey, 0, 0, true);
    }

    /** A send. */
    public static WorkRequest send(long wrId, long local, long length, int lkey) {
        return new WorkRequest(wrId, Opcode.SEND, local, length, lkey, 0, 0, 0, 0, true);
    }

    /** A receive. */
    public static WorkRequest recv(long wrId, long local, long length, int lkey) {
        return new WorkRequest(wrId, Opcode.RECV, local, length, lkey, 0, 0, 0, 0, true);
    }

    /** A compare-and-swap. */
    public static WorkRequest compareAndSwap(long wrId, long local, int lkey, long remote, int rkey, long compare,
                                             long swap) {
        return new WorkRequest(wrId, Opcode.ATOMIC_CMP_AND_SWP, local, 8, lkey, remote, rkey, compare, swap, true);
    }

    /** A fetch-and-add. */
    public static WorkRequest fetchAndAdd(long wrId, long local, int lkey, long remote, int rkey, long add) {
        return new WorkRequest(wrId, Opcode.ATOMIC_FETCH_AND_ADD, local, 8, lkey, remote, rkey, add, 0, true);
    }

    /**
     * A type-2 window bind ({@code IBV_WR_BIND_MW}), unsignaled: {@code newRkey} is the window's
     * key after the bind ({@code wr.bind_mw.rkey}; its index names the window), {@code lkey} the
     * region's, {@code [address, address + length)} the range and {@code access} the remote
     * rights ({@link AccessFlags}) it grants.
     */
    public static WorkRequest bindWindow(long wrId, int newRkey, int lkey, long address, long length, int access) {
        return new WorkRequest(wrId, Opcode.BIND_MW, address, length, lkey, 0, newRkey, access, 0, false);
    }

    /** An invalidation of {@code rkey} ({@code IBV_WR_LOCAL_INV} with {@code invalidate_rkey}), unsignaled. */
    public static WorkRequest localInvalidate(long wrId, int rkey) {
        return new WorkRequest(wrId, Opcode.LOCAL_INV, 0, 0, 0, 0, rkey, 0, 0, false);
    }
}
