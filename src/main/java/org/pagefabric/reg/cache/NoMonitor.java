package org.pagefabric.reg.cache;

/**
 * No monitor: the cache never learns that memory went away, as a pin-down cache without hooks
 * (or MPICH-GM's "leave pinned") runs. Correct only while the application never gives a
 * registered buffer back to the kernel.
 */
public final class NoMonitor implements InvalidationMonitor {
    @Override
    public void bind(RegistrationCache cache) {
    }

    @Override
    public void watch(CacheEntry entry) {
    }

    @Override
    public void unwatch(CacheEntry entry) {
    }
}
