package org.pagefabric.reg.pin;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MmuIntervalNotifier;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Vma;
import org.pagefabric.reg.pinning.NicRegistrationCosts;

/**
 * What pin-all keeps pinned of a rank's memory beyond its segment: each mapping of the program a
 * transfer reaches (its heap, its stack, an mmap), pinned and registered whole the first time,
 * kept for the run, and dropped when the kernel says the mapping changed (an MMU interval
 * notifier), so memory mapped anew at the same address is registered anew rather than reached
 * through stale frames. The deregistration waits for the rank's next transfer, which pays it.
 */
final class ProgramMappings {
    private static final class Mapping {
        final long start;
        final long end;
        final MemoryRegion region;
        final long[] frames;
        MmuIntervalNotifier watch;
        boolean stale;

        Mapping(long start, long end, MemoryRegion region, long[] frames) {
            this.start = start;
            this.end = end;
            this.region = region;
            this.frames = frames;
        }
    }

    private final Endpoint rank;
    private final NicRegistrationCosts costs;
    private final int access;
    private final List<Mapping> live = new ArrayList<>();
    private final List<Mapping> stale = new ArrayList<>();
    private long pinnedBytes;

    ProgramMappings(Endpoint rank, NicRegistrationCosts costs, int access) {
        this.rank = rank;
        this.costs = costs;
        this.access = access;
    }

    /** A registered mapping that holds {@code [va, va+length)}, or {@code null}. */
    MemoryRegion covering(long va, long length) {
        for (Mapping m : live) {
            if (m.start <= va && va + length <= m.end) {
                return m.region;
            }
        }
        return null;
    }

    /**
     * Pins and registers the mappings that hold {@code [va, va+length)}, whole.
     *
     * @return the region and the time it took
     * @throws OsException if a page of the range is not mapped or cannot be pinned
     */
    Registered register(long va, long length) {
        AddressSpace as = rank.process();
        Vma first = as.vma(va);
        if (first == null) {
            throw new OsException(Errno.EFAULT, "[0x" + Long.toHexString(va) + ", +" + length + ") of rank "
                    + rank.id() + " is not mapped", 0);
        }
        long start = first.start();
        long end = first.end();
        while (end < va + length) {
            Vma next = as.vma(end);
            if (next == null || next.start() != end) {
                throw new OsException(Errno.EFAULT, "[0x" + Long.toHexString(va) + ", +" + length + ") of rank "
                        + rank.id() + " is not mapped throughout", 0);
            }
            end = next.end();
        }
        long pages = (end - start) / Kernel.PAGE_SIZE;
        Kernel kernel = rank.node().kernel();
        long fork = costs.markDontfork(as, start, end - start);
        PinResult pin = kernel.getUserPages(as, start, (int) pages, true);
        if (!pin.complete()) {
            long cost = fork + pin.costPs() + unpin(kernel, pin.frames(), pin.pinned());
            throw new OsException(pin.error() == null ? Errno.ENOMEM : pin.error(), "pinning the mapping [0x"
                    + Long.toHexString(start) + ", 0x" + Long.toHexString(end) + ") of rank " + rank.id()
                    + " stopped after " + pin.pinned() + " pages", cost);
        }
        kernel.chargePinned(as, pages);
        MemoryRegion mr = rank.node().nic().registerPinned(rank.pd(), start, end - start, access, pin.frames());
        Mapping m = new Mapping(start, end, mr, pin.frames());
        m.watch = as.subscribe(start, end - start, (sub, from, to, reason, seq) -> invalidate(m));
        live.add(m);
        pinnedBytes += end - start;
        return new Registered(mr, fork + pin.costPs() + costs.registerPs(pages));
    }

    /** Deregisters the mappings the kernel changed since the last call; returns what it cost. */
    long dropStale() {
        if (stale.isEmpty()) {
            return 0;
        }
        Kernel kernel = rank.node().kernel();
        long cost = 0;
        for (Mapping m : stale) {
            rank.node().nic().deregister(m.region);
            long pages = m.frames.length;
            cost += costs.deregisterPs(pages) + unpin(kernel, m.frames, m.frames.length);
            kernel.unchargePinned(rank.process(), pages);
            cost += costs.undoDontfork(rank.process(), m.start, m.end - m.start);
            pinnedBytes -= m.end - m.start;
        }
        stale.clear();
        return cost;
    }

    /** Bytes pinned for the program's mappings. */
    long pinnedBytes() {
        return pinnedBytes;
    }

    private void invalidate(Mapping m) {
        if (m.stale) {
            return;
        }
        m.stale = true;
        live.remove(m);
        m.watch.remove();
        stale.add(m);
    }

    private static long unpin(Kernel kernel, long[] frames, int count) {
        long cost = 0;
        for (int i = 0; i < count; i++) {
            cost += kernel.putPage(frames[i]);
        }
        return cost;
    }

    /** A region and what registering it took, picoseconds. */
    record Registered(MemoryRegion region, long costPs) {
    }
}
