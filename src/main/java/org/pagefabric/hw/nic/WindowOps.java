package org.pagefabric.hw.nic;

import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's execution of the two work requests that manage type-2 memory windows,
 * {@link Opcode#BIND_MW} and {@link Opcode#LOCAL_INV}: each is fetched like any work request,
 * takes its own processing time on top, and takes effect when it reaches the head of its send
 * queue, after every request posted before it has started. Semantics in {@link MemoryWindow}.
 */
final class WindowOps {
    private final KeyTable keys;
    private final AccessRefusals refusals;
    private final Counter binds;
    private final Counter invalidations;
    private final Counter failed;
    private long bindPs;
    private long invalidatePs;

    WindowOps(KeyTable keys, AccessRefusals refusals, Counter binds, Counter invalidations, Counter failed) {
        this.keys = keys;
        this.refusals = refusals;
        this.binds = binds;
        this.invalidations = invalidations;
        this.failed = failed;
    }

    /** Sets the NIC's processing time of a bind and of an invalidation, beyond fetching the request. */
    void setCosts(long bindPs, long invalidatePs) {
        if (bindPs < 0 || invalidatePs < 0) {
            throw new IllegalArgumentException("memory-window costs must not be negative");
        }
        this.bindPs = bindPs;
        this.invalidatePs = invalidatePs;
    }

    /** Processing time of a local request beyond fetching it. */
    long processingPs(Opcode op) {
        return op == Opcode.BIND_MW ? bindPs : invalidatePs;
    }

    /** Executes a BIND_MW or LOCAL_INV request of {@code qp}; its completion status. */
    CompletionStatus execute(QueuePair qp, WorkRequest wr) {
        boolean ok = wr.opcode() == Opcode.BIND_MW ? bind(qp, wr) : invalidate(qp, wr);
        if (!ok) {
            failed.increment();
            return CompletionStatus.LOCAL_PROTECTION_ERROR;
        }
        return CompletionStatus.SUCCESS;
    }

    /**
     * {@code wr.rkey()} is the window's new key (its index names the window), {@code lkey} the
     * region's, {@code [localAddress, +length)} the range, {@code compareOrAdd} the rights. A
     * type-2 window must be unbound to be bound; remote write or atomic rights need a region the
     * NIC may write ({@code ibv_bind_mw(3)}: "Requires local write access to the MR").
     */
    private boolean bind(QueuePair qp, WorkRequest wr) {
        MemoryWindow mw = keys.windowAt(wr.rkey());
        if (mw == null || mw.bound() || mw.pd().id() != qp.pd().id()) {
            return false;
        }
        int rights = (int) wr.compareOrAdd() & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
                | AccessFlags.REMOTE_ATOMIC);
        int needed = (rights & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0 ? AccessFlags.LOCAL_WRITE : 0;
        MemoryRegion mr = keys.byLkey(wr.lkey());
        AccessCheck c = KeyTable.check(mr, qp.pd(), wr.localAddress(), wr.length(), needed);
        if (c != AccessCheck.OK) {
            refusals.count(c);
            return false;
        }
        mw.bind(qp, mr, wr.localAddress(), wr.length(), rights, wr.rkey());
        binds.increment();
        return true;
    }

    /** {@code wr.rkey()} is the key to invalidate ({@code invalidate_rkey}): a bound window of the QP's domain. */
    private boolean invalidate(QueuePair qp, WorkRequest wr) {
        MemoryWindow mw = keys.windowByRkey(wr.rkey());
        if (mw == null || !mw.bound() || mw.pd().id() != qp.pd().id()) {
            return false;
        }
        mw.invalidate();
        invalidations.increment();
        return true;
    }
}
