package org.pagefabric.reg.bounce;

import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.pinning.PinnedRange;
import org.pagefabric.reg.pinning.RangePinner;

/**
 * One rank's bounce buffers, mapped, pinned and registered once at start: for every peer, a
 * set of outgoing buffers (data copied in before it is sent there) and a set of incoming
 * buffers (where that peer's data lands before this rank copies it out). Outgoing buffer
 * {@code b} towards a peer pairs with the peer's incoming buffer {@code b} from this rank, so one
 * buffer index is one credit of the pair.
 */
final class BounceRegion {
    private final long base;
    private final long bufferSize;
    private final int buffers;
    private final int ranks;
    private final RangePinner pinner;
    private final PinnedRange range;
    private final long costPs;

    BounceRegion(Endpoint rank, RangePinner pinner, int ranks, int buffers, long bufferSize) {
        this.bufferSize = bufferSize;
        this.buffers = buffers;
        this.ranks = ranks;
        this.pinner = pinner;
        long length = 2L * ranks * buffers * bufferSize;
        MapResult map = rank.node().kernel().mmap(rank.process(), 0, length, Prot.READ_WRITE, MapFlags.POPULATE);
        this.base = map.address();
        RangePinner.Pinned p = pinner.pin(base, length);
        this.range = p.range();
        this.costPs = map.costPs() + p.costPs();
    }

    /** Time mapping, pinning and registering took, in picoseconds. */
    long costPs() {
        return costPs;
    }

    /** Outgoing buffer {@code b} towards {@code peer}. */
    long outgoing(int peer, int b) {
        return base + ((long) peer * buffers + b) * bufferSize;
    }

    /** Incoming buffer {@code b} from {@code peer}. */
    long incoming(int peer, int b) {
        return base + ((long) (ranks + peer) * buffers + b) * bufferSize;
    }

    int lkey() {
        return range.region().lkey();
    }

    int rkey() {
        return range.region().rkey();
    }

    /** Bytes pinned. */
    long pinnedBytes() {
        return pinner.pinnedBytes();
    }
}
