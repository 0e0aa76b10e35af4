package org.pagefabric.reg.part;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.FaultKind;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.process.ProcessContext;

/**
 * The methods of 000 Table I that prepare the destination buffer before a transfer on PART's
 * hardware, so that the network meets no fault (PART's PIO handling stays installed underneath,
 * since preparing cannot guarantee it, 000 §V):
 * <ul>
 *   <li>{@code transfer-only}: nothing; the pages are expected resident;</li>
 *   <li>{@code touch-pres} and {@code touch-nopres}: the destination reads and writes the first
 *       byte of every page before the transfer; a resident page costs {@code os.touch.present},
 *       plus a page-table walk if the core's main TLB no longer holds its entry ({@link CoreTlb}),
 *       a non-present one a CPU page fault (the kernel's cost). They differ in what they expect:
 *       resident pages (Touch-Pres) or a buffer used for the first time (Touch-NoPres);</li>
 *   <li>{@code pin-mlock}: the destination mlocks the buffer before the transfer (the kernel's
 *       mlock cost, which faults in non-present pages) and munlocks it once the transfer
 *       completed (after the user-perceived latency).</li>
 * </ul>
 * The destination's preparation is done for one-sided writes when the initiator asks for the
 * remote key, and for receives when the receive is posted; its time is on the caller's timeline,
 * as the paper includes it in the measured latency.
 */
public final class TableOneMethod extends PartFamilyPolicy {
    /** Transfer-Only. */
    public static final String TRANSFER_ONLY = "transfer-only";
    /** Touch-Pres-Pg(s). */
    public static final String TOUCH_PRES = "touch-pres";
    /** Touch-NoPres-Pg(s). */
    public static final String TOUCH_NOPRES = "touch-nopres";
    /** Pin with mlock. */
    public static final String PIN_MLOCK = "pin-mlock";

    /** What the method does before a transfer. */
    public enum Preparation {
        /** Nothing. */
        NONE,
        /** Touch every destination page. */
        TOUCH,
        /** mlock the destination range (munlock after completion). */
        MLOCK
    }

    private final Preparation preparation;
    private final Profile profile;
    /** The touching core's main TLB, per node. */
    private final Map<Node, CoreTlb> tlbs = new IdentityHashMap<>();
    private final boolean expectsResident;
    /** mlocked ranges by (rank, address): looked up, never iterated. */
    private final Map<Locked, Long> locked = new HashMap<>();

    private record Locked(int rank, long va) {
    }

    /** The method {@code name} with its preparation and what it expects of the pages. */
    public TableOneMethod(String name, Profile profile, Preparation preparation, boolean expectsResident) {
        super(name, profile, PageIn.ONE, true);
        this.preparation = preparation;
        this.expectsResident = expectsResident;
        this.profile = profile;
    }

    /** Transfer-Only and Touch-Pres expect the destination pages resident: a fault experiment leaves them present. */
    @Override
    public boolean expectsResidentPages() {
        return expectsResident;
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        return new Access(target.segmentRegion().rkey(), prepare(target, va, length));
    }

    @Override
    public boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId) {
        long ps = prepare(rank, va, length);
        if (ps > 0) {
            ctx.sleep(ps);
        }
        return false;
    }

    @Override
    public void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length) {
        if (preparation != Preparation.MLOCK) {
            return;
        }
        if (target != null && remoteVa != 0) {
            unlock(target, remoteVa);
        }
        unlock(initiator, localVa);
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        return rank.process().lockedPages() * Kernel.PAGE_SIZE;
    }

    /** Prepares {@code [va, va + length)} of {@code rank}; returns the time it took. */
    private long prepare(Endpoint rank, long va, long length) {
        Kernel k = rank.node().kernel();
        long start = pageDown(va);
        long end = pageUp(va, length);
        return switch (preparation) {
            case NONE -> 0;
            case TOUCH -> {
                CoreTlb tlb = tlbs.computeIfAbsent(rank.node(), n -> new CoreTlb(profile));
                long ps = 0;
                for (long p = start; p < end; p += Kernel.PAGE_SIZE) {
                    Fault f = k.touch(rank.process(), p, true);
                    // A fault's retried access fills the TLB too; the fault's cost includes its walk.
                    long walk = tlb.walk(rank.process(), p);
                    ps += f.kind() == FaultKind.NONE ? costs.touchPresentPs() + walk : f.costPs();
                }
                yield ps;
            }
            case MLOCK -> {
                long ps = k.mlock(rank.process(), start, end - start);
                locked.merge(new Locked(rank.id(), va), end - start, Math::max);
                yield ps;
            }
        };
    }

    private void unlock(Endpoint rank, long va) {
        Long len = locked.remove(new Locked(rank.id(), va));
        if (len != null) {
            rank.node().kernel().munlock(rank.process(), pageDown(va), len);
        }
    }
}
