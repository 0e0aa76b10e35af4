package org.pagefabric.reg.cache;

import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.hw.os.MemoryHookListener;

/**
 * Intercepted memory calls (UCX's UCM, libfabric's memhooks): every munmap, brk shrink and
 * madvise(DONTNEED) that goes through the process's hooked C library invalidates the cached
 * regions it touches before the kernel acts. Calls that bypass the library (a statically linked
 * program, an allocator with its own system calls) are not seen, and the registrations they
 * invalidate stay cached.
 */
public final class HookMonitor implements InvalidationMonitor, MemoryHookListener {
    private final AllocationHooks hooks;
    private RegistrationCache cache;

    /** A monitor on the process's hooked library calls. */
    public HookMonitor(AllocationHooks hooks) {
        this.hooks = hooks;
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
        cache.invalidate(start, start + length);
    }
}
