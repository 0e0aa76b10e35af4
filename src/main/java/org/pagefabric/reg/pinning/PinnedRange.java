package org.pagefabric.reg.pinning;

import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.Kernel;

/**
 * Whole pages of one rank pinned (get_user_pages) and registered with its NIC as one region.
 *
 * @param start  first byte, page aligned
 * @param pages  pages pinned
 * @param region the NIC registration
 * @param frames the pinned frames, one per page
 */
public record PinnedRange(long start, long pages, MemoryRegion region, long[] frames) {
    /** First byte after the range. */
    public long end() {
        return start + pages * Kernel.PAGE_SIZE;
    }

    /** Bytes pinned. */
    public long bytes() {
        return pages * Kernel.PAGE_SIZE;
    }

    /** Whether the range covers {@code [va, va + length)}. */
    public boolean covers(long va, long length) {
        return va >= start && va + length <= end();
    }
}
