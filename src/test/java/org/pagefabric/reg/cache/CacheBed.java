package org.pagefabric.reg.cache;

import java.util.function.Function;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.sim.Simulator;

/** One process on a real node with a registration cache over it, for the cache's unit tests. */
final class CacheBed {
    static final long PAGE = Kernel.PAGE_SIZE;

    final Profile profile = ProfileRegistry.load("default");
    final Cluster cluster = Cluster.build(new Simulator(1), profile, 2);
    final Kernel kernel = cluster.node(0).kernel();
    final AddressSpace process = kernel.createProcess(Long.MAX_VALUE, true);
    final AllocationHooks hooks = new AllocationHooks(kernel, process);
    final RegistrationCache cache;
    /** The simulated time the cache reads, picoseconds; tests move it. */
    long now;

    /** A bed whose cache runs the monitor {@code monitor} builds for it (from its process or hooks). */
    CacheBed(Function<CacheBed, InvalidationMonitor> monitor, CacheLimits limits) {
        NicRegistrar registrar = new NicRegistrar(kernel, process, cluster.node(0).nic(),
                cluster.node(0).nic().allocatePd("test"), profile);
        cache = new RegistrationCache(registrar, monitor.apply(this), limits, 100, () -> now);
    }

    CacheBed(CacheLimits limits) {
        this(b -> new NoMonitor(), limits);
    }

    /** Maps {@code pages} fresh pages, populated. */
    long map(int pages) {
        return kernel.mmap(process, 0, pages * PAGE, Prot.READ_WRITE, MapFlags.POPULATE).address();
    }

    /** Looks up and releases at once, leaving the entry unused in the LRU. */
    CacheEntry touch(long va, long length) {
        CacheEntry e = cache.acquire(va, length).entry();
        cache.release(e);
        return e;
    }
}
