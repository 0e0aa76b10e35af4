package org.pagefabric.reg.part;

import java.util.List;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.cpu.Tasklet;
import org.pagefabric.hw.cpu.WorkBody;
import org.pagefabric.hw.iommu.ContextBank;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.nic.IommuDmaPath;
import org.pagefabric.hw.nic.NiFaultFifo;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.reg.FaultTrace;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.collect.LongQuadQueue;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * PART's fault handling on one node (000 §IV, Fig. 6), as the enriched ARM SMMU driver and its
 * user-space helper do it:
 * <ol>
 *   <li>the SMMU's fault interrupt runs the fault handler on core 0, which reads and clears the
 *       context bank's fault registers, drains the SMMU fault log and schedules the tasklet;</li>
 *   <li>the tasklet reads the NI FIFO (at most {@code part.tasklet.fifo_reads} entries a run, running
 *       again while entries remain), keeps the unique pages, and pages each in
 *       with get_user_pages and put_page (nothing stays pinned): the faulting page (PIO), its
 *       block (PI4) or the rest of the transfer (PIA); it then tells user space over Netlink
 *       which blocks to ask for again;</li>
 *   <li>the user-space helper, asleep on its Netlink socket on another core (the rank's own
 *       thread keeps core 0), wakes (a context switch), issues one Explicit Retransmission Request
 *       per failed block, and sleeps again; the source retransmits that block.</li>
 * </ol>
 * The helper runs while the tasklet goes on with later FIFO entries, so under PIO the block of a
 * page paged in by one run is asked for again before the next run pages in the block's other
 * pages: each fault gets its own retransmission, and the operations for different pages of one
 * block overlap (000 §V on Fig. 10). An entry logged before the last ERR for its block was issued
 * needs no ERR of its own: that retransmission carried its packet again, and if the page was
 * still missing, the retransmission's own failure was logged anew.
 *
 * <p><b>Cost of a run.</b> A run that pages in at least one page costs {@code part.tasklet} (000
 * Fig. 8's 19 us to resolve one translation fault: FIFO reads, the page-in, the Netlink message)
 * plus the kernel time of every further page it pages in. A run whose entries name only pages
 * present by now (brought in by an earlier run) pages in nothing: it costs its FIFO reads, and
 * the Netlink message ({@code part.tasklet.netlink}) if it has blocks to ask for again.
 *
 * <p>Without ERR the NI drops a faulting packet instead of NACKing it and the source's time-out
 * recovers the block; source-side faults (reads) are paged in the same way and always recovered
 * by the source's time-out. A {@link Trace} records the phases of 000 Fig. 8 since its last reset.
 */
public final class PartDriver implements EventHandler, FaultTrace {
    private static final int EV_HANDLER_DONE = 0;
    private static final int EV_TASKLET = 1;
    private static final int EV_ERR_ISSUED = 2;
    private static final int EV_HELPER_ASLEEP = 3;
    private static final int EV_FIFO_READ = 4;
    /** ERRs remembered to tell which FIFO entries they already answered (a few per block in flight). */
    private static final int ERR_HISTORY = 64;

    private final Node node;
    private final Simulator sim;
    private final Iommu iommu;
    private final IommuDmaPath path;
    private final Kernel kernel;
    private final PartCosts costs;
    private final PageIn pageIn;
    private final boolean err;
    private final int blockBytes;
    private final Tasklet tasklet;
    private final CpuThread helper;
    /** The idle task of the helper's core: the helper sleeping on its socket. */
    private final CpuThread idle;
    private final NiFaultFifo.Entry entry = new NiFaultFifo.Entry();
    private final Trace trace = new Trace();

    private final Core core0;
    private final WorkBody pageInsBody = (type, arg) -> pageIns();
    // Pages resolved by the current tasklet run (unique pages; the FIFO holds at most its capacity).
    private long[] runPages = new long[16];
    private int[] runPdids = new int[16];
    private int runCount;
    // Page-ins the current run found to do, in FIFO order: the entry's page and the range around it.
    private int[] todoPdid = new int[16];
    private long[] todoPage = new long[16];
    private long[] todoStart = new long[16];
    private long[] todoEnd = new long[16];
    private boolean[] todoWrite = new boolean[16];
    private int todoCount;
    /** FIFO entries the current run read. */
    private int runEntries;
    /** Kernel time of the run's first page-in (the one {@code part.tasklet} includes), or -1 before it. */
    private long firstPagePs;
    /** Pages this run paged in. */
    private int runPagedIn;
    /** Whether a run is under way (its FIFO reads or its page-ins): a fault meanwhile runs it again after. */
    private boolean running;
    private boolean rerun;
    /** ERRs this run queued, handed to the helper when it ends. */
    private int runErrs;
    /** Blocks to ask for again, oldest first: (qpn, message id, block, unused). */
    private final LongQuadQueue errs = new LongQuadQueue();
    /** ERRs handed to the helper and not yet issued. */
    private int helperQueued;
    /** The last ERR_HISTORY ERRs issued, oldest first: (qpn, message id, block, when). */
    private final LongQuadQueue issued = new LongQuadQueue();

    private final Counter taskletRuns;
    private final Counter pagesPagedIn;
    private final Counter uniqueFaultPages;
    private final Counter fifoEntries;
    private final Counter errsSent;
    private final Counter answered;
    private final Counter unresolved;
    private final Counter staleEntries;

    /**
     * Installs PART's handler on {@code node}: connects the IOMMU's fault interrupt, creates the
     * tasklet and the user-space helper.
     *
     * @param err        whether faults are answered by ERR (true) or left to the source's time-out
     * @param blockBytes the transport's block size (for PI4)
     */
    PartDriver(Node node, PartCosts costs, PageIn pageIn, boolean err, int blockBytes) {
        this.node = node;
        this.sim = node.simulator();
        this.iommu = node.iommu();
        this.path = node.nic().iommuPath();
        this.kernel = node.kernel();
        this.costs = costs;
        this.pageIn = pageIn;
        this.err = err;
        this.blockBytes = blockBytes;
        Cpu cpu = node.cpu();
        int irq = cpu.interrupts().register("smmu", 0, (type, arg) -> handlerBegin(arg), this, EV_HANDLER_DONE);
        iommu.connectFaultInterrupt(cpu.interrupts(), irq);
        this.tasklet = cpu.tasklet(node.name() + ".part.tasklet", 0, (type, arg) -> readFifo(), this, EV_FIFO_READ);
        this.core0 = cpu.core(0);
        // The scheduler wakes the helper on an idle core: the rank's thread keeps core 0.
        int helperCore = Math.min(1, cpu.coreCount() - 1);
        this.helper = cpu.thread(node.name() + ".part.helper", helperCore);
        this.idle = cpu.thread(node.name() + ".idle" + helperCore, helperCore);
        path.setNackOnFault(err);
        var stats = sim.statistics();
        String n = node.name();
        taskletRuns = counter(stats, TASKLET_RUNS, n);
        pagesPagedIn = counter(stats, PAGES_PAGED_IN, n);
        uniqueFaultPages = counter(stats, FAULT_PAGES, n);
        fifoEntries = counter(stats, FIFO_ENTRIES, n);
        errsSent = counter(stats, ERRS, n);
        answered = counter(stats, ANSWERED_ENTRIES, n);
        staleEntries = counter(stats, STALE_ENTRIES, n);
        unresolved = counter(stats, UNRESOLVED, n);
    }

    // The counters each node's driver publishes, declared once for the counters and the descriptor.
    private static final Statistic TASKLET_RUNS = new Statistic("<node>.part.taskletRuns", "runs", "fault tasklet runs");
    private static final Statistic PAGES_PAGED_IN = new Statistic("<node>.part.pagesPagedIn", "pages",
            "pages the tasklet paged in (get_user_pages)");
    private static final Statistic FAULT_PAGES = new Statistic("<node>.part.faultPages", "pages",
            "unique faulting pages read from the NI FIFO");
    private static final Statistic FIFO_ENTRIES = new Statistic("<node>.part.fifoEntries", "entries", "NI FIFO entries read");
    private static final Statistic ERRS = new Statistic("<node>.part.errs", "requests",
            "explicit retransmission requests issued");
    private static final Statistic ANSWERED_ENTRIES = new Statistic("<node>.part.answeredEntries", "entries",
            "NI FIFO entries logged before an ERR for their block was issued (no ERR of their own)");
    private static final Statistic STALE_ENTRIES = new Statistic("<node>.part.staleEntries", "entries",
            "NI FIFO entries whose page was already present when read (only their ERR was needed)");
    private static final Statistic UNRESOLVED = new Statistic("<node>.part.unresolved", "pages",
            "faulting pages get_user_pages could not bring in");

    /** The statistics every node running PART's driver publishes, as a policy descriptor lists them. */
    static List<Statistic> statistics() {
        return List.of(TASKLET_RUNS, PAGES_PAGED_IN, FAULT_PAGES, FIFO_ENTRIES, ERRS, ANSWERED_ENTRIES, STALE_ENTRIES,
                UNRESOLVED);
    }

    private static Counter counter(StatisticsRegistry stats, Statistic s, String node) {
        return stats.counter(s.nameFor("", node), s.unit(), s.description());
    }

    /** The node. */
    public Node node() {
        return node;
    }

    /** The phase instants since the last {@link Trace#reset()}. */
    public Trace trace() {
        return trace;
    }

    /** Pages paged in so far. */
    @Override
    public long pagesPagedIn() {
        return pagesPagedIn.value();
    }

    /** Unique faulting pages read from the NI FIFO so far. */
    @Override
    public long faultPages() {
        return uniqueFaultPages.value();
    }

    /** Explicit retransmission requests issued so far. */
    @Override
    public long errs() {
        return errsSent.value();
    }

    // The trace's instants, as a workload reads them through FaultTrace.

    @Override
    public void restart() {
        trace.reset();
    }

    @Override
    public long faultPs() {
        return trace.faultPs();
    }

    @Override
    public long handlerStartPs() {
        return trace.handlerStartPs();
    }

    @Override
    public long handlerPs() {
        return trace.handlerPs();
    }

    @Override
    public long taskletStartPs() {
        return trace.taskletStartPs();
    }

    @Override
    public long taskletPs() {
        return trace.taskletPs();
    }

    @Override
    public long errStartPs() {
        return trace.errStartPs();
    }

    @Override
    public long errPs() {
        return trace.errPs();
    }

    /** Tasklet runs so far. */
    public long taskletRuns() {
        return taskletRuns.value();
    }

    /** Binds {@code process} to the IOMMU as context {@code pdid} (shared virtual addressing). */
    void bind(int pdid, AddressSpace process) {
        if (iommu.bank(pdid) == null) {
            SharedVirtualAddressing.bind(iommu, pdid, process);
        }
    }

    // ------------------------------------------------------------------ SMMU fault interrupt

    private long handlerBegin(long pdid) {
        ContextBank bank = iommu.bank((int) pdid);
        if (bank != null) {
            bank.clearFault();
        }
        while (iommu.faultLog().poll() != null) {
            // The log is drained so that later faults are logged and interrupt again.
        }
        return costs.smmuHandlerPs();
    }

    // ------------------------------------------------------------------ tasklet

    /**
     * First part of a run: read every entry the NI FIFO holds (one register read each), note the
     * blocks to ask for again and the unique pages to bring in. The page-ins follow, in the
     * second part ({@link #pageIns}), once the reads are done.
     */
    private long readFifo() {
        running = true;
        taskletRuns.increment();
        runCount = 0;
        todoCount = 0;
        runPagedIn = 0;
        runErrs = 0;
        firstPagePs = -1;
        int entries = 0;
        while (path.fifo().poll(entry)) {
            entries++;
            fifoEntries.increment();
            trace.fault(entry.loggedPs);
            long page = entry.faultAddress & ~(Kernel.PAGE_SIZE - 1);
            if (entry.write && err) {
                if (answeredBefore(entry.qpn, entry.messageId, entry.block, entry.loggedPs)) {
                    answered.increment();
                } else if (queueErr(entry.qpn, entry.messageId, entry.block)) {
                    runErrs++;
                }
            }
            if (resolvedThisRun(entry.pdid, page)) {
                continue;
            }
            mark(entry.pdid, page);
            uniqueFaultPages.increment();
            todo(entry.pdid, page, pageIn.rangeStart(entry.faultAddress, entry.messageAddress, entry.block, blockBytes),
                    pageIn.rangeEnd(entry.faultAddress, entry.messageAddress, entry.messageLength, entry.block,
                            blockBytes), entry.write);
        }
        runEntries = entries;
        if (entries > 0) {
            trace.taskletStart(sim.now());
        }
        return Math.max(1, entries) * costs.emptyPollPs();
    }

    private void todo(int pdid, long page, long start, long end, boolean write) {
        if (todoCount == todoPage.length) {
            int n = todoCount * 2;
            todoPdid = java.util.Arrays.copyOf(todoPdid, n);
            todoPage = java.util.Arrays.copyOf(todoPage, n);
            todoStart = java.util.Arrays.copyOf(todoStart, n);
            todoEnd = java.util.Arrays.copyOf(todoEnd, n);
            todoWrite = java.util.Arrays.copyOf(todoWrite, n);
        }
        todoPdid[todoCount] = pdid;
        todoPage[todoCount] = page;
        todoStart[todoCount] = start;
        todoEnd[todoCount] = end;
        todoWrite[todoCount] = write;
        todoCount++;
    }

    /**
     * Second part of a run: page in what the reads found and tell user space. A run that pages
     * in costs {@code part.tasklet} in all (its reads, its first page-in and its Netlink message;
     * 000 Fig. 8 measured one reading {@code part.tasklet.fifo_reads} entries), plus each read
     * beyond those and the kernel time of each further page; a run that pages nothing in costs
     * its reads and, if it has blocks to ask for again, its Netlink message.
     */
    private long pageIns() {
        long kernelPs = 0;
        for (int i = 0; i < todoCount; i++) {
            kernelPs += pageIn(todoPdid[i], todoPage[i], todoStart[i], todoEnd[i], todoWrite[i]);
        }
        if (runPagedIn == 0) {
            return runEntries == 0 || runErrs == 0 ? 0 : costs.netlinkPs();
        }
        // part.tasklet less the reads and the page-in it includes: the Netlink message and bookkeeping.
        long included = (long) costs.fifoReads() * costs.emptyPollPs();
        return Math.max(0, costs.taskletPs() - included - firstPagePs) + kernelPs;
    }

    /**
     * Pages in the faulting {@code page}, then the rest of {@code [start, end)} around it, each
     * with a get_user_pages call and a put_page per page; returns the kernel time.
     * get_user_pages walks every page of its range: a page already present costs its lookup and
     * reference (and its put_page), a missing one its fault, so paging in ahead (PI4, PIA) costs
     * each page of the range, not only the missing ones. An entry whose own page is present by
     * now (an earlier run or another entry brought it in; one page-table read tells) needs no
     * page-in, only its ERR.
     */
    private long pageIn(int pdid, long page, long start, long end, boolean write) {
        ContextBank bank = iommu.bank(pdid);
        if (bank == null || !(bank.pageTable() instanceof SharedVirtualAddressing sva)) {
            unresolved.increment();
            return 0;
        }
        AddressSpace as = sva.process();
        if (present(as, page, write)) {
            staleEntries.increment();
            return 0;
        }
        long charged = gup(as, page, 1, write);
        charged += gup(as, start, (int) ((page - start) / Kernel.PAGE_SIZE), write);
        long after = page + Kernel.PAGE_SIZE;
        return charged + gup(as, after, (int) ((end - after) / Kernel.PAGE_SIZE), write);
    }

    /** Whether the page at {@code va} is mapped with the access the device needs (a page-table read). */
    private static boolean present(AddressSpace as, long va, boolean write) {
        long pte = as.translate(va);
        return Pte.has(pte, Pte.PRESENT | (write ? Pte.WRITABLE : Pte.READABLE));
    }

    private long gup(AddressSpace as, long va, int pages, boolean write) {
        if (pages <= 0) {
            return 0;
        }
        PinResult r = kernel.getUserPages(as, va, pages, write);
        long ps = r.costPs();
        for (int i = 0; i < r.pinned(); i++) {
            ps += kernel.putPage(r.frames()[i]);
        }
        int broughtIn = r.minorFaults() + r.majorFaults() + r.cowBreaks();
        pagesPagedIn.add(broughtIn);
        runPagedIn += broughtIn;
        if (firstPagePs < 0 && broughtIn > 0) {
            firstPagePs = ps;
        }
        if (!r.complete()) {
            unresolved.add(pages - r.pinned());
        }
        return ps;
    }

    private boolean resolvedThisRun(int pdid, long page) {
        for (int i = 0; i < runCount; i++) {
            if (runPages[i] == page && runPdids[i] == pdid) {
                return true;
            }
        }
        return false;
    }

    private void mark(int pdid, long page) {
        if (resolvedThisRun(pdid, page)) {
            return;
        }
        if (runCount == runPages.length) {
            runPages = java.util.Arrays.copyOf(runPages, runCount * 2);
            runPdids = java.util.Arrays.copyOf(runPdids, runCount * 2);
        }
        runPages[runCount] = page;
        runPdids[runCount] = pdid;
        runCount++;
    }

    /** Whether an ERR for the block was issued after {@code loggedPs}, so it carried this entry's packet again. */
    private boolean answeredBefore(int qpn, long messageId, int block, long loggedPs) {
        for (int i = 0; i < issued.size(); i++) {
            if (issued.get(i, 3) >= loggedPs && issued.get(i, 2) == block && issued.get(i, 1) == messageId
                    && issued.get(i, 0) == qpn) {
                return true;
            }
        }
        return false;
    }

    /**
     * Queues a block for an ERR unless one is already queued and not yet issued.
     *
     * @return whether it was queued
     */
    private boolean queueErr(int qpn, long messageId, int block) {
        for (int i = 0; i < errs.size(); i++) {
            if (errs.get(i, 0) == qpn && errs.get(i, 1) == messageId && errs.get(i, 2) == block) {
                return false;
            }
        }
        errs.add(qpn, messageId, block, 0);
        return true;
    }

    // ------------------------------------------------------------------ events

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_HANDLER_DONE -> {
                trace.handler(sim.now() - costs.smmuHandlerPs(), sim.now());
                if (running) {
                    rerun = true; // as a tasklet scheduled while it runs: once more afterwards
                } else {
                    tasklet.schedule(0);
                }
            }
            case EV_FIFO_READ -> core0.submit(Core.TASKLET, null, 0, pageInsBody, this, EV_TASKLET, 0, null);
            case EV_TASKLET -> {
                running = false;
                if (runEntries > 0) {
                    trace.taskletEnd(sim.now());
                }
                // Netlink wakes the helper: one ERR per failed block, in the order they were found.
                for (int k = 0; k < runErrs; k++) {
                    helper.run(costs.errIssuePs(), this, EV_ERR_ISSUED, 0);
                }
                helperQueued += runErrs;
                runErrs = 0;
                if (rerun || path.fifo().size() > 0) {
                    rerun = false;
                    tasklet.schedule(0);
                }
            }
            case EV_ERR_ISSUED -> {
                int qpn = (int) errs.head(0);
                long messageId = errs.head(1);
                int block = (int) errs.head(2);
                errs.remove();
                helperQueued--;
                if (issued.size() == ERR_HISTORY) {
                    issued.remove();
                }
                issued.add(qpn, messageId, block, sim.now());
                path.requestRetransmission(qpn, messageId, block);
                errsSent.increment();
                trace.err(sim.now() - costs.errIssuePs(), sim.now());
                if (helperQueued == 0) {
                    idle.run(0, this, EV_HELPER_ASLEEP, 0); // nothing more on the socket: the helper sleeps
                }
            }
            case EV_HELPER_ASLEEP -> {
                // The helper's core runs its idle task again; the next wake-up is a context switch.
            }
            default -> throw new IllegalStateException("unknown PART driver event " + type);
        }
    }

    /**
     * The phases of PART's fault handling since {@link #reset()}, as 000 Fig. 8 measures them
     * with {@code ktime_get()} and {@code clock_gettime()} around each software step: the first
     * fault logged; the first SMMU handler run (its own run, without the interrupt's
     * delivery and entry); the first tasklet run that read the NI FIFO after that (interrupts
     * taken during it included); the first ERR issued after that (the user-space helper's own
     * work, without the context switch that woke it). What lies between two phases (interrupt
     * entry, softirq dispatch, the Netlink wake-up and its context switches) is not in the
     * breakdown, which is why the paper's Fig. 9 latency exceeds its Fig. 8 total. 0 where a
     * phase has not happened.
     */
    public static final class Trace {
        private long fault;
        private long handlerStart;
        private long handlerEnd;
        private long taskletStart;
        private long taskletEnd;
        private long errStart;
        private long errEnd;

        /** Forgets every instant. */
        public void reset() {
            fault = 0;
            handlerStart = 0;
            handlerEnd = 0;
            taskletStart = 0;
            taskletEnd = 0;
            errStart = 0;
            errEnd = 0;
        }

        void fault(long ps) {
            if (fault == 0 || ps < fault) {
                fault = ps;
            }
        }

        void handler(long startPs, long endPs) {
            if (handlerEnd == 0) {
                handlerStart = startPs;
                handlerEnd = endPs;
            }
        }

        void taskletStart(long ps) {
            if (taskletStart == 0 && handlerEnd != 0) {
                taskletStart = ps;
            }
        }

        void taskletEnd(long ps) {
            if (taskletEnd == 0 && taskletStart != 0) {
                taskletEnd = ps;
            }
        }

        void err(long startPs, long endPs) {
            if (errEnd == 0 && taskletEnd != 0) {
                errStart = startPs;
                errEnd = endPs;
            }
        }

        /** When the first fault was logged, or 0. */
        public long faultPs() {
            return fault;
        }

        /** When the first SMMU handler run after the fault began its own work, or 0. */
        public long handlerStartPs() {
            return handlerStart;
        }

        /** When that handler run ended, or 0. */
        public long handlerPs() {
            return handlerEnd;
        }

        /** When the first tasklet run that read the NI FIFO after the handler began, or 0. */
        public long taskletStartPs() {
            return taskletStart;
        }

        /** When that tasklet run ended, or 0. */
        public long taskletPs() {
            return taskletEnd;
        }

        /** When the helper began issuing the first ERR after that run, or 0. */
        public long errStartPs() {
            return errStart;
        }

        /** When that ERR was sent, or 0. */
        public long errPs() {
            return errEnd;
        }
    }
}
