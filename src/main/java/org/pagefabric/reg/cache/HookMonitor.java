package org.pagefabric.reg.cache;

import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.hw.os.MemoryHookListener;

/**
 * Intercepted memory calls (UCX's UCM, libfabric's memhooks): every munmap, brk shrink and
 * madvise(DONTNEED) that goes through the process's hooked C library invalidates the cached
 * regions it touches before the kernel acts. Calls that bypass the library (a statically linked
 * program, an allocator with its own system calls) are not seen, and the registrations they
 * invalidate stay cached.
 *
 * <p>Unsynchronised ({@code cache.hooks.unsynchronised}), the hook's removal from the region index
 * is not ordered with a registration another thread of the process is making at the same time:
 * that thread writes back the index it read before the removal, and the freed range stays cached
 * with its old registration (a lost update). Serialised, as libfabric's handler takes its lock,
 * the removal waits for the registration and takes effect.
 */
public final class HookMonitor implements InvalidationMonitor, MemoryHookListener {
    private final AllocationHooks hooks;
    private final boolean unsynchronised;
    private RegistrationCache cache;

    /** A monitor on the process's hooked library calls, serialised with the cache. */
    public HookMonitor(AllocationHooks hooks) {
        this(hooks, false);
    }

    /** A monitor on the process's hooked library calls; {@code unsynchronised}: see the class comment. */
    public HookMonitor(AllocationHooks hooks, boolean unsynchronised) {
        this.hooks = hooks;
        this.unsynchronised = unsynchronised;
    }

    @Override
    public void bind(RegistrationCache cache) {
        this.cache = cache;
        hooks.addListener(this);
    }

    @Override
    public void watch(CacheEntry entry) {
    }

    @Override
    public void unwatch(CacheEntry entry) {
    }

    @Override
    public void unmapped(Call call, long start, long length) {
        if (unsynchronised && cache.updating()) {
            cache.lose(start, start + length);
            return;
        }
        cache.invalidate(start, start + length);
    }
}
