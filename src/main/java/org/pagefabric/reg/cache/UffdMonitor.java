package org.pagefabric.reg.cache;

import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.UserfaultEvent;
import org.pagefabric.hw.os.UserfaultFd;

/**
 * A userfaultfd with UNMAP and REMOVE events, as libfabric's MR cache uses it: each cached
 * region's range is registered with the descriptor; the kernel queues an event whenever a
 * registered range is unmapped or dropped with madvise, whoever does it. The events are
 * asynchronous: the cache sees them only when it reads the queue, which it does before every
 * lookup ({@link #poll()}). Until then the entry is still valid in the cache's eyes, so a key
 * handed out earlier, or used by a peer that cached it, is stale in that window; and an event
 * the kernel does not raise (a change that is neither an unmap nor a remove) is never seen.
 */
public final class UffdMonitor implements InvalidationMonitor {
    private final UserfaultFd fd;
    private RegistrationCache cache;

    /** Opens a userfaultfd on {@code process}. */
    public UffdMonitor(AddressSpace process) {
        this.fd = process.openUserfaultFd();
    }

    @Override
    public void bind(RegistrationCache cache) {
        this.cache = cache;
    }

    @Override
    public void watch(CacheEntry entry) {
        fd.register(entry.start(), entry.length());
    }

    @Override
    public void unwatch(CacheEntry entry) {
        // unregister drops every range overlapping this one, so the ranges of valid entries
        // that overlap it (a merge keeps the old region alive while in use) are put back
        fd.unregister(entry.start(), entry.length());
        for (CacheEntry e = cache.firstValidOverlapping(entry.start(), entry.end()); e != null;
                e = cache.nextValidOverlapping(e, entry.start(), entry.end())) {
            if (e != entry) {
                fd.register(e.start(), e.length());
            }
        }
    }

    @Override
    public void poll() {
        UserfaultEvent ev;
        while ((ev = fd.poll()) != null) {
            cache.invalidate(ev.start(), ev.end());
        }
    }

    /** Events the kernel queued that the cache has not read yet. */
    public int pending() {
        return fd.pending();
    }
}
