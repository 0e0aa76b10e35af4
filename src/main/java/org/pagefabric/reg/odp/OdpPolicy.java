package org.pagefabric.reg.odp;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.AdviseMrFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * On-Demand Paging as a registration policy (001): memory is never pinned; the NIC faults and the
 * node's {@link OdpDriver} resolves. Three variants:
 * <ul>
 *   <li>{@code odp-explicit}: each buffer lies in an on-demand region ({@code IBV_ACCESS_ON_DEMAND}):
 *       the segment is registered once at start, a buffer outside every region gets a region of
 *       its own on first use, kept for the rest of the run (safe: the MMU notifier keeps it
 *       coherent whatever the application does with the memory);
 *   <li>{@code odp-implicit}: one implicit region per rank over the whole address space, registered
 *       up front; no registration ever after;
 *   <li>{@code odp-prefetch}: explicit, and each buffer is prefetched synchronously
 *       ({@code ibv_advise_mr} with FLUSH) before use, at both ends, as an MPI rendezvous does
 *       before its clear-to-send: the faults move out of the transfer into the handshake.
 * </ul>
 */
public final class OdpPolicy extends OnDemandPolicy {
    /** Explicit on-demand regions. */
    public static final String EXPLICIT = "odp-explicit";
    /** One implicit on-demand region per rank. */
    public static final String IMPLICIT = "odp-implicit";
    /** Explicit regions, every buffer prefetched before use. */
    public static final String PREFETCH = "odp-prefetch";

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final String name;
    private final List<List<MemoryRegion>> regions = new ArrayList<>();

    /**
     * The variant called {@code name} ({@link #EXPLICIT}, {@link #IMPLICIT} or {@link #PREFETCH})
     * with costs from {@code profile}.
     */
    public OdpPolicy(String name, Profile profile) {
        if (!name.equals(EXPLICIT) && !name.equals(IMPLICIT) && !name.equals(PREFETCH)) {
            throw new IllegalArgumentException("unknown ODP variant '" + name + "'; valid: " + EXPLICIT + ", "
                    + IMPLICIT + ", " + PREFETCH);
        }
        super(profile);
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long setUp(Endpoint rank) {
        OdpDriver driver = OdpDriver.attach(rank.node(), profile);
        while (regions.size() <= rank.id()) {
            regions.add(new ArrayList<>());
        }
        MemoryRegion mr = name.equals(IMPLICIT)
                ? driver.registerImplicit(rank.process(), rank.pd(), ACCESS)
                : driver.register(rank.process(), rank.pd(), rank.segment(), rank.segmentLength(), ACCESS);
        rank.setSegmentRegion(mr);
        regions.get(rank.id()).add(mr);
        return driver.registerPs();
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        return access(ctx, rank, va, length, true);
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        return access(ctx, target, va, length, false);
    }

    /**
     * The region covering the buffer (registered now if none does) and, for the prefetch variant,
     * the buffer prefetched; the time spent is charged to the caller.
     */
    private Access access(ProcessContext ctx, Endpoint owner, long va, long length, boolean local) {
        OdpDriver driver = OdpDriver.of(owner.node());
        long cost = 0;
        MemoryRegion mr = covering(owner, va, length);
        if (mr == null) {
            // a buffer outside the segment: one region of its own, page aligned, kept from now on
            long start = va & -Kernel.PAGE_SIZE;
            long end = Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
            mr = driver.register(owner.process(), owner.pd(), start, end - start, ACCESS);
            regions.get(owner.id()).add(mr);
            cost = driver.registerPs();
        }
        if (name.equals(PREFETCH) && length > 0) {
            // the wait passes in ctx itself; only a registration is charged on top
            Completion done = new Completion("odp.prefetch");
            if (owner.node().nic().advise(mr, va, length, AdviseMrFlags.PREFETCH_WRITE | AdviseMrFlags.FLUSH, done)) {
                ctx.await(done);
            }
        }
        return new Access(local ? mr.lkey() : mr.rkey(), cost);
    }

    private MemoryRegion covering(Endpoint owner, long va, long length) {
        for (MemoryRegion mr : regions.get(owner.id())) {
            if (mr.valid() && mr.contains(va, length)) {
                return mr;
            }
        }
        return null;
    }

    /** Device memory registers on demand too: a dynamic attachment whose moves the driver follows. */
    @Override
    public DmaBufRegistrar dmaBuf(Node node) {
        return OdpDriver.attach(node, profile);
    }
}
