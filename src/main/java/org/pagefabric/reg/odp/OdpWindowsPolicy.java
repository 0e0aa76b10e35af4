package org.pagefabric.reg.odp;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.MemoryWindow;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * Memory windows as ODP's access-control vehicle (001, "Future work"): one implicit on-demand
 * region per rank, registered up front, which no peer is given a key to; per (buffer, peer) a
 * type-2 memory window bound over the buffer's pages on the queue pair that peer's requests
 * arrive on, whose key is the only one the peer holds. Revoking the peer's access invalidates the
 * window (LOCAL_INV) instead of deregistering; the next access rebinds it under a fresh key.
 *
 * <p>{@code odp.mw.revoke_every} = N revokes a window after every N transfers through it, as a
 * runtime that hands out short-lived keys (one per RPC) does; 0 never revokes. A bind and an
 * invalidation are posted unsignaled on the target's queue pair and awaited by the rank that
 * asked, whose time they are charged to, as a rendezvous waits for the target's registration.
 * The target NIC counts the binds and revocations that took effect and the accesses it refused
 * through windows ({@code <node>.nic.mw.*}).
 */
public final class OdpWindowsPolicy extends OnDemandPolicy {
    /** The policy's name. */
    public static final String NAME = "odp-windows";

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;
    private static final int WINDOW_RIGHTS = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    /** A window over one buffer's pages for one peer. */
    private static final class Slot {
        final MemoryWindow mw;
        final long start;
        final long end;
        long uses;

        Slot(MemoryWindow mw, long start, long end) {
            this.mw = mw;
            this.start = start;
            this.end = end;
        }
    }

    private final long revokeEvery;
    private final List<MemoryRegion> regions = new ArrayList<>();
    /** Windows by target rank, then by initiator rank. */
    private final List<List<List<Slot>>> windows = new ArrayList<>();
    private long nextWrId = 1;

    /** The policy with costs and the revocation period from {@code profile}. */
    public OdpWindowsPolicy(Profile profile) {
        super(profile);
        this.revokeEvery = profile.count(OdpParameters.MW_REVOKE_EVERY);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long setUp(Endpoint rank) {
        OdpDriver driver = OdpDriver.attach(rank.node(), profile);
        rank.node().nic().setWindowCosts(profile.time(OdpParameters.MW_BIND), profile.time(OdpParameters.MW_INVALIDATE));
        while (regions.size() <= rank.id()) {
            regions.add(null);
            windows.add(new ArrayList<>());
        }
        MemoryRegion mr = driver.registerImplicit(rank.process(), rank.pd(), ACCESS);
        rank.setSegmentRegion(mr);
        regions.set(rank.id(), mr);
        return driver.registerPs();
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        return new Access(regions.get(rank.id()).lkey(), 0);
    }

    /** The key of the initiator's window over the buffer at the target, bound now if it is not. */
    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        Slot s = find(target, initiator, va, length);
        if (s == null) {
            long start = va & -Kernel.PAGE_SIZE;
            long end = Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
            s = new Slot(target.node().nic().allocateWindow(target.pd()), start, end);
            slots(target, initiator).add(s);
        }
        if (!s.mw.bound()) {
            Nic nic = target.node().nic();
            int key = nic.keys().nextWindowKey(s.mw);
            post(ctx, target.qp(initiator.id()), WorkRequest.bindWindow(nextWrId++, key,
                    regions.get(target.id()).lkey(), s.start, s.end - s.start, WINDOW_RIGHTS));
        }
        return new Access(s.mw.rkey(), 0);
    }

    /** Counts a transfer through the window and revokes it once it has served its period. */
    @Override
    public void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa,
                          long length) {
        if (target == null || remoteVa == 0 || revokeEvery == 0) {
            return;
        }
        Slot s = find(target, initiator, remoteVa, length);
        if (s == null || !s.mw.bound() || ++s.uses % revokeEvery != 0) {
            return;
        }
        post(ctx, s.mw.qp(), WorkRequest.localInvalidate(nextWrId++, s.mw.rkey()));
    }

    /**
     * Posts a bind or invalidation on the target's QP and waits for it to take effect. Nothing is
     * posted on a QP in the error state: the request would be flushed with a completion the
     * target's rank does not expect, and the window stays as it is (an unbound one's stale key is
     * refused at the peer's access, which reports the error).
     */
    private static void post(ProcessContext ctx, QueuePair qp, WorkRequest wr) {
        if (qp.inError()) {
            return;
        }
        Completion done = new Completion("odp-windows." + wr.opcode());
        qp.postSend(wr, done);
        ctx.await(done);
    }

    private List<Slot> slots(Endpoint target, Endpoint initiator) {
        List<List<Slot>> byPeer = windows.get(target.id());
        while (byPeer.size() <= initiator.id()) {
            byPeer.add(new ArrayList<>());
        }
        return byPeer.get(initiator.id());
    }

    private Slot find(Endpoint target, Endpoint initiator, long va, long length) {
        for (Slot s : slots(target, initiator)) {
            if (va >= s.start && va + Math.max(length, 1) <= s.end) {
                return s;
            }
        }
        return null;
    }
}
