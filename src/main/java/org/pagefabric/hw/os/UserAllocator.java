package org.pagefabric.hw.os;

import org.agrona.collections.Long2LongHashMap;
import org.pagefabric.sim.collect.LongLongSortedMap;

/**
 * A user-space malloc/free over brk and mmap, shaped like glibc's: requests at or above the mmap
 * threshold get their own mapping, unmapped again by free; smaller ones come from a brk arena
 * (first fit, 16-byte granules, neighbours coalesced) that may trim its top back to the kernel
 * and may give whole free pages inside back with madvise(DONTNEED), both configurable.
 *
 * <p>What matters to registration caches is which frees reach the kernel: a small free usually
 * does not (the buffer's pages stay mapped and a cached registration stays valid), a large free
 * or a trim does (the pages go away and a cached registration turns stale), and whether the
 * hooks see it depends on {@link Linkage}.
 */
public final class UserAllocator {
    private static final long GRANULE = 16;

    /** How the allocator reaches the kernel. */
    public enum Linkage {
        /** Dynamically linked glibc: calls go through the {@link AllocationHooks}. */
        DYNAMIC,
        /** Statically linked: the hooks cannot be installed; calls go straight to the kernel. */
        STATIC,
        /** An allocator with its own system calls: the hooks never see them. */
        CUSTOM
    }

    /**
     * Allocator settings (mallopt).
     *
     * @param mmapThreshold        requests of at least this many bytes are mmap'd (M_MMAP_THRESHOLD)
     * @param trim                 whether free shrinks the heap top with brk (M_TRIM_THRESHOLD &lt; infinity)
     * @param trimThreshold        free space at the heap top that triggers a trim, bytes
     * @param topPad               bytes kept (and added on growth) at the heap top (M_TOP_PAD)
     * @param releaseInteriorPages whether free gives whole free pages inside the heap back with
     *                             madvise(DONTNEED), as malloc_trim and jemalloc-style purging do
     * @param linkage              how kernel calls are made
     */
    public record Config(long mmapThreshold, boolean trim, long trimThreshold, long topPad,
            boolean releaseInteriorPages, Linkage linkage) {
        /** Validates the settings. */
        public Config {
            if (mmapThreshold <= 0 || trimThreshold < 0 || topPad < 0 || linkage == null) {
                throw new IllegalArgumentException("UserAllocator.Config needs mmapThreshold > 0, trimThreshold >= 0, "
                        + "topPad >= 0 and a linkage");
            }
        }
    }

    /**
     * The outcome of malloc.
     *
     * @param address the block, or 0 (NULL) if memory ran out
     * @param costPs  kernel time spent in system calls, picoseconds
     */
    public record Allocation(long address, long costPs) {
    }

    /** The block maps' answer for an address that is not a block (sizes are positive). */
    private static final long NONE = -1;

    private final Kernel kernel;
    private final AddressSpace space;
    private final Config config;
    private final AllocationHooks hooks;
    /** Free arena blocks, start to size, in address order. */
    private final LongLongSortedMap free = new LongLongSortedMap(NONE);
    /** Arena blocks in use, start to size (looked up, never iterated). */
    private final Long2LongHashMap used = new Long2LongHashMap(NONE);
    /** mmap'd blocks, start to mapped length (looked up, never iterated). */
    private final Long2LongHashMap mapped = new Long2LongHashMap(NONE);
    private long arenaBytes;

    /**
     * An allocator for {@code space}.
     *
     * @param hooks the hooked library calls; required for {@link Linkage#DYNAMIC}, ignored otherwise
     */
    public UserAllocator(Kernel kernel, AddressSpace space, Config config, AllocationHooks hooks) {
        if (config.linkage() == Linkage.DYNAMIC && (hooks == null || hooks.space() != space)) {
            throw new IllegalArgumentException("a dynamically linked allocator needs the hooks of its own process");
        }
        this.kernel = kernel;
        this.space = space;
        this.config = config;
        this.hooks = hooks;
    }

    /** malloc. */
    public Allocation malloc(long size) {
        long n = Math.max(GRANULE, (size + GRANULE - 1) & -GRANULE);
        if (n >= config.mmapThreshold()) {
            long len = Kernel.pageUp(n);
            try {
                MapResult r = mmap(len);
                mapped.put(r.address(), len);
                return new Allocation(r.address(), r.costPs());
            } catch (OsException e) {
                return new Allocation(0, e.costPs());
            }
        }
        long cost = 0;
        long at = firstFit(n);
        if (at < 0) {
            long top = Kernel.pageUp(space.brk());
            int last = free.size() - 1;
            long tail = last >= 0 && free.key(last) + free.value(last) == top ? free.value(last) : 0;
            long grow = Kernel.pageUp(n - tail + config.topPad());
            MapResult r = brk(top + grow);
            cost += r.costPs();
            if (r.address() < top + grow) {
                return new Allocation(0, cost);
            }
            addFree(top, grow);
            at = firstFit(n);
        }
        used.put(at, n);
        arenaBytes += n;
        return new Allocation(at, cost);
    }

    /** free. Returns kernel time spent in system calls (0 when nothing reached the kernel). */
    public long free(long address) {
        if (address == 0) {
            return 0;
        }
        long len = mapped.remove(address);
        if (len != NONE) {
            return munmap(address, len);
        }
        long n = used.remove(address);
        if (n == NONE) {
            throw new IllegalArgumentException("free(" + Long.toHexString(address) + "): not an allocated block (double free?)");
        }
        arenaBytes -= n;
        long[] block = addFree(address, n);
        long cost = 0;
        long top = Kernel.pageUp(space.brk());
        if (config.trim() && block[0] + block[1] == top && block[1] >= config.trimThreshold()) {
            long release = (block[1] - config.topPad()) & -Kernel.PAGE_SIZE;
            if (release > 0) {
                MapResult r = brk(top - release);
                cost += r.costPs();
                if (r.address() == top - release) {
                    free.remove(block[0]);
                    block[1] -= release;
                    if (block[1] > 0) {
                        free.put(block[0], block[1]);
                    }
                }
            }
        }
        if (config.releaseInteriorPages() && block[1] > 0) {
            long from = Kernel.pageUp(block[0]);
            long to = (block[0] + block[1]) & -Kernel.PAGE_SIZE;
            if (to > from) {
                cost += madviseDontneed(from, to - from);
            }
        }
        return cost;
    }

    /** The usable size of an allocated block. */
    public long usableSize(long address) {
        long len = mapped.get(address);
        if (len != NONE) {
            return len;
        }
        long n = used.get(address);
        if (n == NONE) {
            throw new IllegalArgumentException(Long.toHexString(address) + " is not an allocated block");
        }
        return n;
    }

    /** Whether {@code address} is the start of an mmap'd block. */
    public boolean isMmapped(long address) {
        return mapped.containsKey(address);
    }

    /** Bytes allocated from the arena and not freed. */
    public long arenaBytesInUse() {
        return arenaBytes;
    }

    private long firstFit(long n) {
        for (int i = 0; i < free.size(); i++) {
            long size = free.value(i);
            if (size >= n) {
                long at = free.key(i);
                free.removeAt(i);
                if (size > n) {
                    free.put(at + n, size - n);
                }
                return at;
            }
        }
        return -1;
    }

    /** Inserts a free block, merging with neighbours; returns the merged {start, size}. */
    private long[] addFree(long start, long size) {
        int before = free.floorIndex(start);
        if (before >= 0 && free.key(before) + free.value(before) == start) {
            start = free.key(before);
            size += free.removeAt(before);
        }
        long after = free.remove(start + size);
        if (after != NONE) {
            size += after;
        }
        free.put(start, size);
        return new long[] {start, size};
    }

    private boolean hooked() {
        return config.linkage() == Linkage.DYNAMIC;
    }

    private MapResult mmap(long len) {
        return hooked() ? hooks.mmap(0, len, Prot.READ_WRITE, MapFlags.NONE)
                : kernel.mmap(space, 0, len, Prot.READ_WRITE, MapFlags.NONE);
    }

    private long munmap(long addr, long len) {
        return hooked() ? hooks.munmap(addr, len) : kernel.munmap(space, addr, len);
    }

    private MapResult brk(long newBrk) {
        return hooked() ? hooks.brk(newBrk) : kernel.brk(space, newBrk);
    }

    private long madviseDontneed(long addr, long len) {
        return hooked() ? hooks.madviseDontneed(addr, len) : kernel.madvise(space, addr, len, Advice.DONTNEED);
    }
}
