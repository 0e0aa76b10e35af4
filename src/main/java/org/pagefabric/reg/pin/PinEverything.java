package org.pagefabric.reg.pin;

import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.node.Node;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.PerRank;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.pinning.NicRegistrationCosts;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.reg.pinning.StaticDmaBufRegistrar;

/**
 * The baseline: every rank pins and registers its whole communication segment once, at start
 * (as MPI and GASNet do with a pre-registered segment), and every operation uses that one
 * region. No cost per operation; the price is memory pinned for the whole run and the
 * registration time up front. A program whose buffers lie outside the segment (a recorded MPI
 * program's heap, stack and mappings) has each mapping a transfer reaches pinned whole the first
 * time and kept, until the kernel changes it ({@link ProgramMappings}): everything the program
 * communicates from stays pinned, as pinning everything means.
 */
public final class PinEverything implements RegistrationPolicy {
    /** The command-line name. */
    public static final String NAME = "pin-all";

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final long registerBasePs;
    private final long registerPerPagePs;
    private final boolean dontfork;
    private final StaticDmaBufRegistrar dmaBufs;
    private final NicRegistrationCosts costs;
    private final PerRank<ProgramMappings> mappings = new PerRank<>();

    /** The policy with registration costs from {@code profile}. */
    public PinEverything(Profile profile) {
        this.registerBasePs = profile.time(NicParameters.REGISTER_BASE);
        this.registerPerPagePs = profile.time(NicParameters.REGISTER_PER_PAGE);
        this.dontfork = profile.flag(NicParameters.REGISTER_DONTFORK);
        this.dmaBufs = new StaticDmaBufRegistrar(registerBasePs, registerPerPagePs,
                profile.time(NicParameters.REGISTER_DEVICE_GROWTH));
        this.costs = NicRegistrationCosts.of(profile);
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        return keyOf(rank, va, length, false);
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        return keyOf(target, va, length, true);
    }

    private Access keyOf(Endpoint rank, long va, long length, boolean remote) {
        MemoryRegion segment = rank.segmentRegion();
        if (va >= rank.segment() && va + length <= rank.segment() + rank.segmentLength()) {
            return new Access(remote ? segment.rkey() : segment.lkey(), 0);
        }
        ProgramMappings own = mappings.get(rank);
        long cost = own.dropStale();
        MemoryRegion mr = own.covering(va, length);
        if (mr == null) {
            ProgramMappings.Registered r = own.register(va, length);
            mr = r.region();
            cost += r.costPs();
        }
        return new Access(remote ? mr.rkey() : mr.lkey(), cost);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long setUp(Endpoint rank) {
        long pages = rank.segmentLength() / Kernel.PAGE_SIZE;
        if (pages > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("segment of " + rank.segmentLength() + " B is too large to pin at once");
        }
        var kernel = rank.node().kernel();
        // the segment is registered for the whole run: its fork protection is never undone
        long forkPs = dontfork ? rank.process().dontforkRanges().dontfork(rank.segment(), rank.segmentLength()) : 0;
        PinResult pin = kernel.getUserPages(rank.process(), rank.segment(), (int) pages, true);
        if (!pin.complete()) {
            Errno e = pin.error() == null ? Errno.ENOMEM : pin.error();
            throw new OsException(e, "pinning the " + rank.segmentLength() + " B segment of rank " + rank.id()
                    + " failed after " + pin.pinned() + " pages", pin.costPs());
        }
        kernel.chargePinned(rank.process(), pages);
        MemoryRegion mr = rank.node().nic().registerPinned(rank.pd(), rank.segment(), rank.segmentLength(), ACCESS,
                pin.frames());
        rank.setSegmentRegion(mr);
        mappings.put(rank, new ProgramMappings(rank, costs, ACCESS));
        return forkPs + pin.costPs() + registerBasePs + pages * registerPerPagePs;
    }

    /** Device memory is pinned too: a static attachment, which the exporter may not move. */
    @Override
    public DmaBufRegistrar dmaBuf(Node node) {
        return dmaBufs;
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        ProgramMappings own = mappings.get(rank);
        return (rank.segmentRegion() == null ? 0 : rank.segmentLength()) + (own == null ? 0 : own.pinnedBytes());
    }
}
