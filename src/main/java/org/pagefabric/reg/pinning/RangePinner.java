package org.pagefabric.reg.pinning;

import org.agrona.collections.Long2LongHashMap;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.PinResult;

/**
 * Pins and registers, or deregisters and unpins, the pages under buffers of one rank, says what
 * that cost, and counts the distinct pages the rank holds pinned this way (a page under two
 * registrations is pinned twice but occupies one frame). The same steps as the pin-everything baseline, on demand and per range:
 * pinning is get_user_pages (its kernel time, faults included) plus the NIC registration
 * ({@code nic.register.*}); undoing it costs the NIC deregistration ({@code nic.deregister.*},
 * whose per-page part is the unpin, so the kernel's put_page time is not charged twice).
 */
public final class RangePinner {

    /** Access rights of every region pinned here: the NIC may read and write it, locally and remotely. */
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private final Endpoint rank;
    /** Registrations holding each pinned page, by page number. */
    private final Long2LongHashMap holders = new Long2LongHashMap(0);
    private final NicRegistrationCosts costs;

    /** A pinner for {@code rank} with registration costs from {@code profile}. */
    public RangePinner(Profile profile, Endpoint rank) {
        this.rank = rank;
        this.costs = NicRegistrationCosts.of(profile);
    }

    /** A range just pinned and the time pinning and registering it took, in picoseconds. */
    public record Pinned(PinnedRange range, long costPs) {
    }

    /**
     * Pins and registers the whole pages under {@code [va, va + length)} of the rank, charging
     * them to its pinned_vm.
     *
     * @throws OsException if a page cannot be pinned (the pages pinned so far are released)
     */
    public Pinned pin(long va, long length) {
        long start = va & -Kernel.PAGE_SIZE;
        long end = Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
        long pages = (end - start) / Kernel.PAGE_SIZE;
        if (pages > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(length + " B is too large to pin at once");
        }
        Kernel kernel = rank.node().kernel();
        long forkPs = costs.markDontfork(rank.process(), start, end - start);
        PinResult pin = kernel.getUserPages(rank.process(), start, (int) pages, true);
        if (!pin.complete()) {
            for (int i = 0; i < pin.pinned(); i++) {
                kernel.putPage(pin.frames()[i]);
            }
            costs.undoDontfork(rank.process(), start, end - start);
            Errno e = pin.error() == null ? Errno.ENOMEM : pin.error();
            throw new OsException(e, "pinning " + pages + " pages at 0x" + Long.toHexString(start) + " of rank "
                    + rank.id() + " failed after " + pin.pinned() + " pages", pin.costPs());
        }
        try {
            kernel.chargePinned(rank.process(), pages);
        } catch (OsException e) {
            long cost = forkPs + costs.undoDontfork(rank.process(), start, end - start) + pin.costPs();
            for (int i = 0; i < pin.pinned(); i++) {
                cost += kernel.putPage(pin.frames()[i]);
            }
            throw new OsException(e.errno(), e.getMessage(), cost);
        }
        MemoryRegion mr = rank.node().nic().registerPinned(rank.pd(), start, end - start, ACCESS, pin.frames());
        for (long page = start / Kernel.PAGE_SIZE; page < end / Kernel.PAGE_SIZE; page++) {
            holders.put(page, holders.get(page) + 1);
        }
        return new Pinned(new PinnedRange(start, pages, mr, pin.frames()), forkPs + pin.costPs()
                + costs.registerPs(pages));
    }

    /**
     * Deregisters the range and unpins its pages.
     *
     * @return the time that took, in picoseconds
     */
    public long unpin(PinnedRange range) {
        Kernel kernel = rank.node().kernel();
        rank.node().nic().deregister(range.region());
        for (long frame : range.frames()) {
            kernel.putPage(frame);
        }
        kernel.unchargePinned(rank.process(), range.pages());
        for (long page = range.start() / Kernel.PAGE_SIZE; page < range.end() / Kernel.PAGE_SIZE; page++) {
            long left = holders.get(page) - 1;
            if (left == 0) {
                holders.remove(page);
            } else {
                holders.put(page, left);
            }
        }
        return costs.deregisterPs(range.pages())
                + costs.undoDontfork(rank.process(), range.start(), range.end() - range.start());
    }

    /** The rank. */
    public Endpoint rank() {
        return rank;
    }

    /** Bytes of distinct pages the rank holds pinned through this pinner now. */
    public long pinnedBytes() {
        return holders.size() * Kernel.PAGE_SIZE;
    }
}
