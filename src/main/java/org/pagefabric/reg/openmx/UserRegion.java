package org.pagefabric.reg.openmx;

import java.util.Arrays;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MmuIntervalNotifier;
import org.pagefabric.reg.pinning.CachedRange;

/**
 * A user region declared to the Open-MX driver (003 §3.1): a virtual range and, per page, the
 * frame the driver pinned for it, or none. Declaring pins nothing; the driver pins pages on
 * demand and may unpin them (invalidation, pressure) without the region being undeclared. The
 * {@link RegionCache} counts the communications using a cached region.
 */
final class UserRegion extends CachedRange {
    static final long NOT_PINNED = -1;

    /** First page-aligned address the region touches. */
    final long firstPage;
    final long[] frames;
    int pinnedPages;
    /** Leading pages pinned without a hole: the part of the region the driver may already read or write. */
    int pinnedPrefix;
    /** Overlapped pinning, sender: the message whose pull is served as the pinning advances, or null. */
    Message servedPull;
    /** The MMU interval notifier subscription of a cached region, or null. */
    MmuIntervalNotifier watch;

    UserRegion(long va, long length) {
        super(va, va + length);
        this.firstPage = va & -Kernel.PAGE_SIZE;
        int pages = (int) (Math.ceilDiv(va + Math.max(length, 1) - firstPage, Kernel.PAGE_SIZE));
        this.frames = new long[pages];
        Arrays.fill(frames, NOT_PINNED);
    }

    int pages() {
        return frames.length;
    }

    boolean fullyPinned() {
        return pinnedPages == frames.length;
    }

    /** Whether every page under message bytes {@code [offset, offset + len)} is pinned. */
    boolean pinned(long offset, int len) {
        int first = pageOf(offset);
        int last = pageOf(offset + Math.max(len, 1) - 1);
        for (int i = first; i <= last; i++) {
            if (frames[i] == NOT_PINNED) {
                return false;
            }
        }
        return true;
    }

    /** Extends the pinned prefix over pages pinned since it was last measured. */
    void advancePrefix() {
        while (pinnedPrefix < frames.length && frames[pinnedPrefix] != NOT_PINNED) {
            pinnedPrefix++;
        }
    }

    /** Bytes of the region, from its start, lying on pages of the pinned prefix. */
    long pinnedPrefixBytes() {
        if (pinnedPrefix == frames.length) {
            return length();
        }
        return Math.max(0, Math.min(length(), (long) pinnedPrefix * Kernel.PAGE_SIZE - (start() - firstPage)));
    }

    /** Index of the page holding message byte {@code offset}. */
    int pageOf(long offset) {
        return (int) ((start() + offset - firstPage) / Kernel.PAGE_SIZE);
    }

    long pageAddress(int i) {
        return firstPage + (long) i * Kernel.PAGE_SIZE;
    }

    @Override
    public String toString() {
        return "region[0x" + Long.toHexString(start()) + "+" + length() + ", " + pinnedPages + "/" + frames.length + " pinned]";
    }
}
