package org.pagefabric.active;

import org.agrona.collections.Long2ObjectHashMap;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.cpu.WorkBody;
import org.pagefabric.hw.iommu.aa.AccessLog;
import org.pagefabric.hw.iommu.aa.AccessLogListener;
import org.pagefabric.hw.iommu.aa.AccessRecord;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.FrequentHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * One process's use of Active Access: its IUID, its access log (a ring mapped in its own address
 * space and programmed into the IOMMU's access log table), the handlers of its pages, and the
 * notification that runs them on the node's cores.
 *
 * <p>{@link #assocPage} sets the page's WL/WLD/RL/RLD/E bits and IUID and invalidates the
 * IOMMU's cached translation. Handlers run where the notification puts them: in the interrupt
 * handler of the log's MSI (raised every {@code aa.interrupt.batch} entries, and at once on an
 * active flush), or on a dedicated core that polls the log's tail in memory or in the CPU
 * scratchpad. Each entry costs the read of the entry ({@code aa.log.access}) plus its handler.
 */
public final class ActiveDomain extends FrequentHandler implements AccessLogListener {
    private static final int EV_DRAIN = 0;
    private static final int EV_DRAINED = 1;

    private final ActiveNode node;
    private final AddressSpace process;
    private final int pdid;
    private final Notification notification;
    private final AccessLog log;
    private final Long2ObjectHashMap<AccessHandler> handlers = new Long2ObjectHashMap<>();
    private final AccessRecord record;
    private final Simulator sim;
    private final Core core;
    private final CpuThread thread;
    private final int irq;
    private final long flushingPage;
    private final Counter handled;
    private final Counter unhandled;
    /** The drain as the core's work, made once: a drain per notification must not allocate. */
    private final WorkBody drainWork = (t, a) -> drainAll();
    private boolean draining;
    private long sinceNotify;
    private long[] rangeStart = new long[0];
    private long[] rangeEnd = new long[0];
    private AccessHandler[] rangeHandler = new AccessHandler[0];
    private DrainListener drainListener;
    private int lastDrainEntries;
    private int batch;

    /**
     * Creates the domain of a process, maps its log and flushing page and programs the IOMMU.
     *
     * @param pdid the process's protection domain on the NIC (the IOMMU's PDID)
     * @param blockWrites whether device writes to its active pages reach only the log (W=0 for
     *                    the device, active puts) or memory as well (W=1, e.g. counting)
     */
    public ActiveDomain(ActiveNode node, AddressSpace process, int pdid, Notification notification, boolean blockWrites) {
        this.node = node;
        this.process = process;
        this.pdid = pdid;
        this.notification = notification;
        this.sim = node.node().simulator();
        this.batch = node.costs().interruptBatch();
        int iuid = node.unit().table().freeIuid();
        if (iuid < 0) {
            throw new IllegalStateException("no free IUID on " + node.node().name() + ": the access log table's "
                    + node.unit().table().capacity() + " entries are in use (aa.access_log_table.entries)");
        }
        var kernel = node.node().kernel();
        MapResult ring = kernel.mmap(process, 0, node.costs().logBytes(), Prot.READ_WRITE, MapFlags.POPULATE);
        MapResult flush = kernel.mmap(process, 0, Kernel.PAGE_SIZE, Prot.READ_WRITE, MapFlags.POPULATE);
        this.flushingPage = flush.address();
        kernel.setDeviceBits(process, flushingPage, Pte.withIuid(0, iuid), 0);
        this.log = new AccessLog(iuid, pdid, ring.address(), node.costs().logBytes());
        this.record = new AccessRecord(node.costs().maxAccessBytes());
        node.unit().program(log, this, blockWrites);
        node.unit().registerFlushingPage(flushingPage, iuid);
        String name = node.node().name() + ".aa.iuid" + iuid;
        this.handled = sim.statistics().counter(name + ".handled", "entries", "log entries run through their handler");
        this.unhandled = sim.statistics().counter(name + ".unhandled", "entries", "log entries of pages without a handler");
        var cpu = node.node().cpu();
        if (notification == Notification.INTERRUPT) {
            this.core = null;
            this.thread = null;
            this.irq = cpu.interrupts().register("aa.iuid" + iuid, 0, (t, a) -> drainAll(), this, EV_DRAINED);
        } else {
            int c = node.dedicatedCore();
            this.core = cpu.core(c);
            this.thread = cpu.thread(name + ".poller", c);
            this.irq = -1;
        }
    }

    /**
     * Associates the page holding {@code va} with {@code actions} and {@code handler}: from now
     * on the IOMMU logs the selected accesses to it and the handler sees each of them.
     */
    public void assocPage(long va, int actions, AccessHandler handler) {
        long page = va & ~(Kernel.PAGE_SIZE - 1);
        long bits = Actions.pteBits(actions) | Pte.withIuid(0, log.iuid());
        long clear = Pte.WL | Pte.WLD | Pte.RL | Pte.RLD | Pte.withIuid(0, Pte.MAX_IUID);
        if (node.node().kernel().setDeviceBits(process, page, bits, clear) == 0) {
            throw new IllegalArgumentException("page 0x" + Long.toHexString(page) + " is not mapped in the process");
        }
        node.node().iommu().invalidatePage(pdid, page);
        handlers.put(page, handler);
    }

    /**
     * Associates every page of {@code [va, va + length)} with {@code actions} and one
     * {@code handler}: a volume of many pages (a hashtable's table) becomes active at once, and
     * the handler is found by range, so a large region costs one entry here rather than one per
     * page. Pages already associated with {@link #assocPage} keep their own handler.
     */
    public void assocRange(long va, long length, int actions, AccessHandler handler) {
        long first = va & ~(Kernel.PAGE_SIZE - 1);
        long end = va + length;
        long bits = Actions.pteBits(actions) | Pte.withIuid(0, log.iuid());
        long clear = Pte.WL | Pte.WLD | Pte.RL | Pte.RLD | Pte.withIuid(0, Pte.MAX_IUID);
        var kernel = node.node().kernel();
        for (long page = first; page < end; page += Kernel.PAGE_SIZE) {
            if (kernel.setDeviceBits(process, page, bits, clear) == 0) {
                throw new IllegalArgumentException("page 0x" + Long.toHexString(page) + " is not mapped in the process");
            }
        }
        node.node().iommu().invalidateRange(pdid, first, end - first);
        int n = rangeStart.length;
        rangeStart = java.util.Arrays.copyOf(rangeStart, n + 1);
        rangeEnd = java.util.Arrays.copyOf(rangeEnd, n + 1);
        rangeHandler = java.util.Arrays.copyOf(rangeHandler, n + 1);
        rangeStart[n] = first;
        rangeEnd[n] = end;
        rangeHandler[n] = handler;
    }

    /**
     * Who hears of each drain of the log: the work a drain cost and the entries it consumed, on
     * the core it ran on. A workload that models its processes' cores itself (the hashtable)
     * charges the owner's core with it.
     */
    @FunctionalInterface
    public interface DrainListener {
        /** A drain consumed {@code entries} entries at a cost of {@code costPs} (handlers included). */
        void drained(ActiveDomain domain, int entries, long costPs);
    }

    /** Sets the listener of drains (one; null for none). */
    public void onDrained(DrainListener listener) {
        this.drainListener = listener;
    }

    /**
     * Interrupts after every {@code entries} entries from now on, in place of
     * {@code aa.interrupt.batch}: 1 at the end of a run, so that no entry waits for a batch
     * that will never fill.
     */
    public void setInterruptBatch(int entries) {
        if (entries < 1) {
            throw new IllegalArgumentException("an interrupt batch needs at least one entry, got " + entries);
        }
        this.batch = entries;
    }

    /**
     * Routes this domain's interrupt to core {@code core} of its node (the core its process runs
     * on, as MSI vectors are steered per queue), instead of core 0; nothing for polling domains.
     */
    public void routeInterruptsTo(int core) {
        if (irq >= 0) {
            node.node().cpu().interrupts().setAffinity(irq, core);
        }
    }

    /** The core this domain's interrupt is routed to; -1 for a polling domain. */
    public int interruptCore() {
        return irq < 0 ? -1 : node.node().cpu().interrupts().affinity(irq).index();
    }

    /** How this domain's handlers are notified. */
    public Notification notification() {
        return notification;
    }

    /** The protection domain (PDID) of the process that owns the domain. */
    public int pdid() {
        return pdid;
    }

    /** The process whose address space holds the log and the active pages. */
    public AddressSpace process() {
        return process;
    }

    /** The node's Active Access. */
    public ActiveNode node() {
        return node;
    }

    /**
     * Starts processing whatever the log holds now, whatever the notification threshold: the end
     * of a run of interrupt-driven inserts below a batch (as an active flush would, without the
     * flushing page's round trip).
     */
    public void kick() {
        if (log.waiting() == 0) {
            return;
        }
        if (notification == Notification.INTERRUPT) {
            raise();
        } else {
            wake();
        }
    }

    /** The IUID. */
    public int iuid() {
        return log.iuid();
    }

    /** The access log. */
    public AccessLog log() {
        return log;
    }

    /** The flushing page: a get of it is an active flush of this domain's log. */
    public long flushingPage() {
        return flushingPage;
    }

    /** Log entries handled so far. */
    public long handled() {
        return handled.value();
    }

    @Override
    public void committed(AccessLog l, int entries) {
        sinceNotify += entries;
        if (notification == Notification.INTERRUPT) {
            if (sinceNotify >= batch) {
                raise();
            }
        } else {
            wake();
        }
    }

    @Override
    public void flushRequested(AccessLog l) {
        if (notification == Notification.INTERRUPT) {
            raise();
        } else {
            wake();
        }
    }

    private void raise() {
        sinceNotify = 0;
        node.node().cpu().interrupts().raise(irq, 0);
    }

    /** The poller notices the tail moved after one check of it (memory or scratchpad). */
    private void wake() {
        if (!draining) {
            draining = true;
            long check = notification == Notification.SCRATCHPAD ? node.costs().scratchpadAccessPs()
                    : node.costs().logAccessPs();
            sim.schedule(check, Band.HARDWARE, this, EV_DRAIN, 0);
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_DRAIN -> core.submit(Core.THREAD, thread, 0, drainWork, this, EV_DRAINED, 0, null);
            case EV_DRAINED -> {
                node.drained(this);
                draining = false;
                if (log.waiting() > 0) {
                    if (notification == Notification.INTERRUPT) {
                        raise();
                    } else {
                        wake();
                    }
                }
            }
            default -> throw new IllegalStateException("unknown event type " + type);
        }
    }

    /**
     * Consumes every committed entry, running its page's handler; returns the work's cost. Per
     * entry the handler loop compares the log's pointers (in memory, where the IOMMU's last
     * append left the line uncached, or in the scratchpad for {@link Notification#SCRATCHPAD}:
     * the only difference 002 §3.5 makes between the two) and reads the entry, header and data,
     * from the log in memory, one access per cache line.
     */
    private long drainAll() {
        long cost = 0;
        long pointer = notification == Notification.SCRATCHPAD ? node.costs().scratchpadAccessPs()
                : node.costs().logAccessPs();
        int entries = 0;
        while (log.poll(record)) {
            entries++;
            cost += pointer + node.costs().logAccessPs() * ((AccessLog.HEADER_BYTES + record.dataLength + 63) / 64);
            AccessHandler h = handlerOf(record.va);
            if (h == null) {
                unhandled.increment();
            } else {
                handled.increment();
                cost += h.handle(record);
            }
        }
        lastDrainEntries = entries;
        if (drainListener != null) {
            drainListener.drained(this, entries, cost);
        }
        return cost;
    }

    private AccessHandler handlerOf(long va) {
        for (int i = 0; i < rangeStart.length; i++) {
            if (va >= rangeStart[i] && va < rangeEnd[i]) {
                AccessHandler own = handlers.isEmpty() ? null : handlers.get(va & ~(Kernel.PAGE_SIZE - 1));
                return own != null ? own : rangeHandler[i];
            }
        }
        return handlers.isEmpty() ? null : handlers.get(va & ~(Kernel.PAGE_SIZE - 1));
    }

    /** Entries the last drain consumed. */
    public int lastDrainEntries() {
        return lastDrainEntries;
    }
}
