package org.pagefabric.reg.cache;

import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.MmuIntervalNotifier;
import org.pagefabric.hw.os.MmuInvalidationCallback;

/**
 * A monitor built on kernel MMU interval notifiers: each cached region subscribes to its range
 * with the subclass's callback, and unsubscribes when it leaves the cache.
 */
abstract class NotifierMonitor implements InvalidationMonitor {
    /** The process whose page tables are watched. */
    final AddressSpace process;
    /** The cache that drops invalidated regions. */
    RegistrationCache cache;

    NotifierMonitor(AddressSpace process) {
        this.process = process;
    }

    /** What the kernel calls when a watched region's mappings change. */
    abstract MmuInvalidationCallback notifier();

    @Override
    public final void bind(RegistrationCache cache) {
        this.cache = cache;
    }

    @Override
    public final void watch(CacheEntry entry) {
        entry.watch = process.subscribe(entry.start(), entry.length(), notifier());
    }

    @Override
    public final void unwatch(CacheEntry entry) {
        if (entry.watch instanceof MmuIntervalNotifier n) {
            n.remove();
        }
        entry.watch = null;
    }
}
