package org.pagefabric.examples.mrmap;

import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * An example policy written outside PageFabric: each rank's segment is pinned and registered once,
 * as with {@code pin-all}, but every operation looks its keys up in a software memory-region map
 * first, as libfabric providers that virtualise keys do ({@code ofi_mr_map}). The lookup's cost is
 * a parameter this package declares ({@link MrMapParameters#LOOKUP}).
 */
public final class MrMapPolicy implements RegistrationPolicy {
    /** The command-line name. */
    public static final String NAME = "example-mr-map";

    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private final long lookupPs;
    private final long registerBasePs;
    private final long registerPerPagePs;
    /** Per-rank state, indexed by rank: the region its map holds. */
    private MemoryRegion[] regions = new MemoryRegion[0];
    private Counter lookups;

    /** Whether registering marks the segment MADV_DONTFORK first (libibverbs after ibv_fork_init). */
    private final boolean dontfork;

    /** The policy with costs from {@code profile}. */
    public MrMapPolicy(Profile profile) {
        this.lookupPs = profile.time(MrMapParameters.LOOKUP);
        this.registerBasePs = profile.time(NicParameters.REGISTER_BASE);
        this.registerPerPagePs = profile.time(NicParameters.REGISTER_PER_PAGE);
        this.dontfork = profile.flag(NicParameters.REGISTER_DONTFORK);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Pins and registers the segment, and enters its region in the rank's map. */
    @Override
    public long setUp(Endpoint rank) {
        if (lookups == null) {
            lookups = rank.node().simulator().statistics().counter(NAME + ".lookups", "lookups",
                    "memory-region map lookups, one per key an operation needs");
        }
        int pages = Math.toIntExact(rank.segmentLength() / Kernel.PAGE_SIZE);
        long forkPs = dontfork ? rank.process().dontforkRanges().dontfork(rank.segment(), rank.segmentLength()) : 0;
        PinResult pin = rank.node().kernel().getUserPages(rank.process(), rank.segment(), pages, true);
        if (!pin.complete()) {
            throw new OsException(pin.error() == null ? Errno.ENOMEM : pin.error(), "pinning the segment of rank "
                    + rank.id() + " failed", pin.costPs());
        }
        rank.node().kernel().chargePinned(rank.process(), pages);
        MemoryRegion mr = rank.node().nic().registerPinned(rank.pd(), rank.segment(), rank.segmentLength(), ACCESS,
                pin.frames());
        if (rank.id() >= regions.length) {
            regions = java.util.Arrays.copyOf(regions, rank.jobSize());
        }
        regions[rank.id()] = mr;
        return forkPs + pin.costPs() + registerBasePs + pages * registerPerPagePs;
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        lookups.increment();
        return new Access(regions[rank.id()].lkey(), lookupPs);
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        lookups.increment();
        return new Access(regions[target.id()].rkey(), lookupPs);
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        return rank.id() < regions.length && regions[rank.id()] != null ? rank.segmentLength() : 0;
    }

    /** Every lookup finds its key: the map holds each segment from the start. */
    @Override
    public long count(Metric metric) {
        return switch (metric) {
            case HITS -> lookups == null ? 0 : lookups.value();
            case MISSES -> 0;
            default -> NOT_COUNTED;
        };
    }

    /** A workload's timed part starts counting hits from zero; misses are always zero. */
    @Override
    public void reset(Metric metric) {
        if (metric == Metric.HITS && lookups != null) {
            lookups.reset();
        }
    }
}
