package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;

/**
 * The C library's memory calls of one process with interception hooks installed, as UCX's UCM
 * patches mmap, munmap, brk and madvise: each call is reported to the listeners (unmaps before
 * they happen, maps after) and then made to the kernel.
 *
 * <p>Only calls that go through here are seen. A statically linked program or a custom allocator
 * calls the kernel directly (see {@link UserAllocator.Linkage}): the kernel still unmaps and the
 * MMU notifiers still fire, but no hook event is delivered, which is why UCX then refuses to
 * cache registrations.
 */
public final class AllocationHooks {
    private final Kernel kernel;
    private final AddressSpace space;
    private final List<MemoryHookListener> listeners = new ArrayList<>();
    private long delivered;

    /** The hooked library calls of {@code space}. */
    public AllocationHooks(Kernel kernel, AddressSpace space) {
        this.kernel = kernel;
        this.space = space;
    }

    /** The process. */
    public AddressSpace space() {
        return space;
    }

    /** Adds a listener; listeners hear events in the order they were added. */
    public void addListener(MemoryHookListener listener) {
        listeners.add(listener);
    }

    /** Removes a listener. */
    public void removeListener(MemoryHookListener listener) {
        listeners.remove(listener);
    }

    /** Events delivered so far (each counts once, whatever the number of listeners). */
    public long delivered() {
        return delivered;
    }

    /** Hooked mmap of private anonymous memory. */
    public MapResult mmap(long addr, long length, int prot, int flags) {
        MapResult r = kernel.mmap(space, addr, length, prot, flags);
        mapped(MemoryHookListener.Call.MMAP, r.address(), Kernel.pageUp(length));
        return r;
    }

    /** Hooked munmap. Returns kernel time. */
    public long munmap(long addr, long length) {
        unmapped(MemoryHookListener.Call.MUNMAP, addr, length);
        return kernel.munmap(space, addr, length);
    }

    /** Hooked brk. */
    public MapResult brk(long newBrk) {
        long oldEnd = Kernel.pageUp(space.brk());
        long newEnd = Kernel.pageUp(newBrk);
        if (newEnd < oldEnd && newBrk >= space.brkStart()) {
            unmapped(MemoryHookListener.Call.BRK, newEnd, oldEnd - newEnd);
        }
        MapResult r = kernel.brk(space, newBrk);
        long end = Kernel.pageUp(r.address());
        if (end > oldEnd) {
            mapped(MemoryHookListener.Call.BRK, oldEnd, end - oldEnd);
        }
        return r;
    }

    /** Hooked madvise(MADV_DONTNEED). Returns kernel time. */
    public long madviseDontneed(long addr, long length) {
        unmapped(MemoryHookListener.Call.MADVISE, addr, length);
        return kernel.madvise(space, addr, length, Advice.DONTNEED);
    }

    private void unmapped(MemoryHookListener.Call call, long start, long length) {
        delivered++;
        for (MemoryHookListener l : List.copyOf(listeners)) {
            l.unmapped(call, start, length);
        }
    }

    private void mapped(MemoryHookListener.Call call, long start, long length) {
        delivered++;
        for (MemoryHookListener l : List.copyOf(listeners)) {
            l.mapped(call, start, length);
        }
    }
}
