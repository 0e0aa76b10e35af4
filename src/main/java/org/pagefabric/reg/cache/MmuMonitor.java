package org.pagefabric.reg.cache;

import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.MmuInvalidationCallback;

/**
 * Kernel MMU interval notifiers (003 §3.1; ODP's umem): each cached region subscribes to its
 * range, and the kernel calls back before any change of those mappings, whoever makes it
 * (munmap by a custom allocator, reclaim, migration, copy-on-write). The cache drops the region
 * from its index at once, so it is never handed out again; the deregistration itself waits for
 * the next cache operation (and for the region's last user), as UCX applies invalidations lazily.
 * Every reason invalidates: a cache of pinned regions cannot tell which changes keep its frames.
 */
public final class MmuMonitor extends NotifierMonitor {
    /** A monitor on {@code process}'s page tables. */
    public MmuMonitor(AddressSpace process) {
        super(process);
    }

    @Override
    MmuInvalidationCallback notifier() {
        return (sub, start, end, reason, seq) -> cache.invalidate(start, end);
    }
}
