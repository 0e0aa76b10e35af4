package org.pagefabric.reg.cache;

import org.agrona.collections.LongArrayQueue;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.InvalidationReason;
import org.pagefabric.hw.os.MmuIntervalNotifier;
import org.pagefabric.hw.os.MmuInvalidationCallback;

/**
 * HPE's kdreg2 kernel module as libfabric's MR cache uses it (shs-kdreg2; libfabric
 * {@code prov/util/src/kdreg2_mem_monitor.c}): each cached region is registered with the module
 * by an ioctl, which subscribes an MMU notifier on the range and keeps it in an interval tree.
 * Any change of the mappings, whoever makes it, bumps the region's generation in a status page
 * mapped read-only into the process and queues a mapping-change event. The kernel cannot call into
 * user space, so the cache learns of the change lazily: before a lookup it loads the shared
 * pending-events counter ({@code kdreg2_read_counter}, a volatile load, no system call) and, only
 * when it is non-zero, reads the queued events and drops their ranges (libfabric reads them in an
 * evictor thread and checks the hit entry's generation, which the model folds into the lookup:
 * either way no lookup hands out a region changed before it). What it sees is what MMU
 * notifiers see (every reason, not only unmap and remove as userfaultfd), at the price of a
 * memory load per lookup rather than a read() on a descriptor.
 */
public final class Kdreg2Monitor extends NotifierMonitor {
    /** The module's event ring: start and end of each queued mapping change. */
    private final LongArrayQueue events = new LongArrayQueue();
    private long totalEvents;

    /** Opens the kdreg2 device for {@code process}. */
    public Kdreg2Monitor(AddressSpace process) {
        super(process);
    }

    @Override
    MmuInvalidationCallback notifier() {
        return notifier;
    }

    @Override
    public void poll() {
        // the counter is all a lookup reads while nothing changed
        while (!events.isEmpty()) {
            long start = events.pollLong();
            long end = events.pollLong();
            cache.invalidate(start, end);
        }
    }

    /** Events the module queued that the cache has not read yet (the status page's pending_events). */
    public int pending() {
        return events.size() / 2;
    }

    /** Events the module generated since the device was opened (the status page's total_events). */
    public long totalEvents() {
        return totalEvents;
    }

    /**
     * The module's notifier: it acts only at the end of a change (invalidate_range_end, in
     * kdreg2_mmu_notifier.c) and whatever the change's reason.
     */
    private final MmuInvalidationCallback notifier = new MmuInvalidationCallback() {
        @Override
        public void invalidate(MmuIntervalNotifier sub, long start, long end, InvalidationReason reason, long seq) {
        }

        @Override
        public void invalidateEnd(MmuIntervalNotifier sub, long start, long end, InvalidationReason reason) {
            events.addLong(start);
            events.addLong(end);
            totalEvents++;
        }
    };
}
