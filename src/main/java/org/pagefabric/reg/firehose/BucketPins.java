package org.pagefabric.reg.firehose;

import java.util.Arrays;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.reg.PolicyRefusal;

/**
 * Pins and unpins the buckets of one rank's segment: get_user_pages and the NIC's translations
 * on a pin, the reverse on an unpin, with the time each takes.
 *
 * <p>The NIC sees the segment as one region whose key never changes; only the translations of
 * pinned buckets are present. That is what GM's per-bucket registrations amount to for the
 * NIC (one key namespace, translations for registered pages only), and it makes a put into a
 * bucket that is not pinned a refused access (a pinned region's missing entry), never a silent
 * success. The driver's per-registration costs are still charged per bucket ({@link PinCosts}).
 */
final class BucketPins {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    private static final long NO_FRAME = -1;

    private final Endpoint rank;
    private final long bucketBytes;
    private final int buckets;
    private final MemoryRegion region;
    private final PinCosts costs;
    /** Whether each bucket's registration marks it MADV_DONTFORK (libibverbs after ibv_fork_init). */
    private final boolean dontfork;
    /** Whether unpinning a bucket marks it MADV_DOFORK again (ibv_dereg_mr). */
    private final boolean dofork;
    /** Frame pinned under each page of the segment, or -1. */
    private final long[] frames;
    private long pinnedPages;

    /**
     * Registers the rank's segment with no translations and prepares its buckets of
     * {@code bucketBytes}; {@code dontfork} and {@code dofork} as the profile's
     * nic.register.dontfork and nic.deregister.dofork.
     */
    BucketPins(Endpoint rank, long bucketBytes, PinCosts costs, boolean dontfork, boolean dofork) {
        if (bucketBytes < Kernel.PAGE_SIZE || bucketBytes % Kernel.PAGE_SIZE != 0) {
            throw new IllegalArgumentException("firehose.bucket_size " + bucketBytes + " B is not a whole number of "
                    + Kernel.PAGE_SIZE + " B pages");
        }
        long n = Math.ceilDiv(rank.segmentLength(), bucketBytes);
        if (n > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("segment of " + rank.segmentLength() + " B has too many buckets");
        }
        this.rank = rank;
        this.bucketBytes = bucketBytes;
        this.buckets = (int) n;
        this.costs = costs;
        this.dontfork = dontfork;
        this.dofork = dofork;
        this.frames = new long[Math.toIntExact(rank.segmentLength() / Kernel.PAGE_SIZE)];
        Arrays.fill(frames, NO_FRAME);
        // A region of the pinned kind whose entries start absent: see the class comment.
        this.region = rank.node().nic().keys().register(rank.pd(), rank.segment(), rank.segmentLength(), ACCESS, false);
    }

    /** Buckets in the segment (the last one may be short of a whole bucket). */
    int buckets() {
        return buckets;
    }

    /** The segment's region (its keys are the ones every operation uses). */
    MemoryRegion region() {
        return region;
    }

    /**
     * The bucket holding segment address {@code va}.
     *
     * @throws PolicyRefusal for an address outside the segment: Firehose, like GASNet, keeps
     *                       bucket tables over the communication segment only
     */
    int bucketOf(long va) {
        long off = va - rank.segment();
        if (off < 0 || off >= rank.segmentLength()) {
            throw new PolicyRefusal(FirehosePolicy.NAME + " keeps bucket tables over the communication segment only"
                    + " (GASNet's segment); address 0x" + Long.toHexString(va) + " is outside the segment of rank "
                    + rank.id());
        }
        return (int) (off / bucketBytes);
    }

    /** Bytes pinned now. */
    long pinnedBytes() {
        return pinnedPages * Kernel.PAGE_SIZE;
    }

    private int firstPage(int b) {
        return (int) (b * bucketBytes / Kernel.PAGE_SIZE);
    }

    private int pages(int b) {
        long start = b * bucketBytes;
        return (int) ((Math.min(start + bucketBytes, rank.segmentLength()) - start) / Kernel.PAGE_SIZE);
    }

    /**
     * Pins bucket {@code b} and installs its translations.
     *
     * @return kernel and driver time, picoseconds
     * @throws OsException if the kernel cannot pin its pages
     */
    long pin(int b) {
        int first = firstPage(b);
        int pages = pages(b);
        long va = rank.segment() + (long) first * Kernel.PAGE_SIZE;
        Kernel kernel = rank.node().kernel();
        long bytes = (long) pages * Kernel.PAGE_SIZE;
        long forkPs = dontfork ? rank.process().dontforkRanges().dontfork(va, bytes) : 0;
        PinResult pin = kernel.getUserPages(rank.process(), va, pages, true);
        if (!pin.complete()) {
            if (dontfork) {
                forkPs += rank.process().dontforkRanges().dofork(va, bytes);
            }
            for (int i = 0; i < pin.pinned(); i++) {
                kernel.putPage(pin.frames()[i]);
            }
            Errno e = pin.error() == null ? Errno.ENOMEM : pin.error();
            throw new OsException(e, "rank " + rank.id() + ": pinning firehose bucket " + b + " failed after "
                    + pin.pinned() + " of " + pages + " pages", forkPs + pin.costPs());
        }
        kernel.chargePinned(rank.process(), pages);
        System.arraycopy(pin.frames(), 0, frames, first, pages);
        rank.node().nic().mapPages(region, va, pin.frames());
        pinnedPages += pages;
        return forkPs + pin.costPs() + costs.register(pages);
    }

    /**
     * Removes bucket {@code b}'s translations and unpins its pages.
     *
     * @param continuesRegion whether the bucket extends the region the driver is already
     *                        deregistering (the bucket before it, unpinned just before), so that
     *                        no further deregistration call is paid
     * @return kernel and driver time, picoseconds
     */
    long unpin(int b, boolean continuesRegion) {
        int first = firstPage(b);
        int pages = pages(b);
        long va = rank.segment() + (long) first * Kernel.PAGE_SIZE;
        Nic nic = rank.node().nic();
        // Translations go first, so no DMA can reach a frame once it is unpinned.
        nic.zap(region, va, (long) pages * Kernel.PAGE_SIZE);
        Kernel kernel = rank.node().kernel();
        long ps = 0;
        for (int i = first; i < first + pages; i++) {
            if (frames[i] == NO_FRAME) {
                throw new IllegalStateException("rank " + rank.id() + ": page " + i + " of bucket " + b + " is not pinned");
            }
            ps += kernel.putPage(frames[i]);
            frames[i] = NO_FRAME;
        }
        kernel.unchargePinned(rank.process(), pages);
        pinnedPages -= pages;
        if (dontfork && dofork) {
            ps += rank.process().dontforkRanges().dofork(va, (long) pages * Kernel.PAGE_SIZE);
        }
        return ps + (continuesRegion ? costs.deregisterExtension(pages) : costs.deregister(pages));
    }
}
