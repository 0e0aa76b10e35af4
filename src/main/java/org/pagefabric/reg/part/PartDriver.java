package org.pagefabric.reg.part;

import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.cpu.Tasklet;
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
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * PART's fault handling on one node (000 §IV, Fig. 6), as the enriched ARM SMMU driver and its
 * user-space helper do it:
 * <ol>
 *   <li>the SMMU's fault interrupt runs the fault handler on core 0, which reads and clears the
 *       context bank's fault registers, drains the SMMU fault log and schedules the tasklet;</li>
 *   <li>the tasklet reads the NI FIFO (at most {@code part.tasklet.fifo_reads} entries a run, running
 *       again while entries remain), keeps the unique pages, and pages each in
 *       with get_user_pages and put_page (nothing stays pinned): the faulting page (PIO), its
 *       block (PI4) or the rest of the transfer (PIA); it then informs user space;</li>
 *   <li>user space (a helper thread woken by the Netlink message: a context switch away from
 *       the rank's own thread on that core) issues one Explicit Retransmission Request per
 *       failed block, and the source retransmits that block.</li>
 * </ol>
 * Without ERR the NI drops a faulting packet instead of NACKing it and the source's time-out
 * recovers the block; source-side faults (reads) are paged in the same way and always recovered
 * by the source's time-out. A {@link Trace} records the first instant of each phase since its
 * last reset, for the latency breakdown of 000 Fig. 8.
 */
public final class PartDriver implements EventHandler {
    /** Page size. */
    static final long PAGE = Kernel.PAGE_SIZE;
    private static final int EV_HANDLER_DONE = 0;
    private static final int EV_TASKLET = 1;
    private static final int EV_ERR_ISSUED = 2;
    private static final int EV_SWITCHED_BACK = 3;

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
    private final CpuThread rankThread;
    private final NiFaultFifo.Entry entry = new NiFaultFifo.Entry();
    private final Trace trace = new Trace();

    // Pages resolved by the current tasklet run (unique pages; the FIFO holds at most its capacity).
    private long[] runPages = new long[16];
    private int[] runPdids = new int[16];
    private int runCount;
    /** Whether this run has paged in its first page (the one {@code part.tasklet} includes). */
    private boolean chargedFirst;
    // Blocks to ask for again, a ring of primitive fields.
    private int[] errQpn = new int[16];
    private long[] errMessage = new long[16];
    private int[] errBlock = new int[16];
    private int errHead;
    private int errSize;
    /** Blocks found by the tasklet run in progress, moved to the ring when it ends. */
    private int runErrFrom;

    private final Counter taskletRuns;
    private final Counter pagesPagedIn;
    private final Counter uniqueFaultPages;
    private final Counter fifoEntries;
    private final Counter errsSent;
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
        this.tasklet = cpu.tasklet(node.name() + ".part.tasklet", 0, (type, arg) -> taskletBegin(), this, EV_TASKLET);
        this.helper = cpu.thread(node.name() + ".part.helper", 0);
        this.rankThread = cpu.thread(node.name() + ".rank", 0);
        path.setNackOnFault(err);
        var stats = sim.statistics();
        String n = node.name() + ".part.";
        taskletRuns = stats.counter(n + "taskletRuns", "runs", "fault tasklet runs");
        pagesPagedIn = stats.counter(n + "pagesPagedIn", "pages", "pages the tasklet paged in (get_user_pages)");
        uniqueFaultPages = stats.counter(n + "faultPages", "pages", "unique faulting pages read from the NI FIFO");
        fifoEntries = stats.counter(n + "fifoEntries", "entries", "NI FIFO entries read");
        errsSent = stats.counter(n + "errs", "requests", "explicit retransmission requests issued");
        staleEntries = stats.counter(n + "staleEntries", "entries",
                "NI FIFO entries whose page was already present when read (only their ERR was needed)");
        unresolved = stats.counter(n + "unresolved", "pages", "faulting pages get_user_pages could not bring in");
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
    public long pagesPagedIn() {
        return pagesPagedIn.value();
    }

    /** Unique faulting pages read from the NI FIFO so far. */
    public long faultPages() {
        return uniqueFaultPages.value();
    }

    /** Explicit retransmission requests issued so far. */
    public long errs() {
        return errsSent.value();
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

    private long taskletBegin() {
        taskletRuns.increment();
        runCount = 0;
        chargedFirst = false;
        runErrFrom = errSize;
        long kernelPs = 0;
        int entries = 0;
        while (entries < costs.fifoReads() && path.fifo().poll(entry)) {
            entries++;
            fifoEntries.increment();
            trace.fault(entry.loggedPs);
            long page = entry.faultAddress & ~(PAGE - 1);
            if (entry.write && err) {
                queueErr(entry.qpn, entry.messageId, entry.block);
            }
            if (resolvedThisRun(entry.pdid, page)) {
                continue;
            }
            uniqueFaultPages.increment();
            long start = pageIn.rangeStart(entry.faultAddress, entry.messageAddress, entry.block, blockBytes);
            long end = pageIn.rangeEnd(entry.faultAddress, entry.messageAddress, entry.messageLength, entry.block,
                    blockBytes);
            kernelPs += pageIn(entry.pdid, page, start, end, entry.write);
        }
        if (entries == 0) {
            return costs.emptyPollPs();
        }
        return costs.taskletPs() + kernelPs;
    }

    /**
     * Pages in the non-present pages of {@code [start, end)} around the faulting {@code page},
     * marking each page of the range resolved in this run; returns the kernel time to charge.
     * The first page a run pages in is part of {@code part.tasklet}; every further page costs
     * what the kernel charged for it. An entry whose page is present by now (an earlier run or
     * another entry brought it in) needs no page-in, only its ERR.
     */
    private long pageIn(int pdid, long page, long start, long end, boolean write) {
        ContextBank bank = iommu.bank(pdid);
        if (bank == null || !(bank.pageTable() instanceof SharedVirtualAddressing sva)) {
            unresolved.increment();
            return 0;
        }
        AddressSpace as = sva.process();
        long charged = 0;
        if (!present(as, page, write)) {
            charged += gup(as, page, 1, write, !chargedFirst);
            chargedFirst = true;
        } else {
            staleEntries.increment();
        }
        mark(pdid, page);
        for (long va = start; va < end; ) {
            if (va == page || present(as, va, write)) {
                mark(pdid, va);
                va += PAGE;
                continue;
            }
            long runEnd = va;
            while (runEnd < end && runEnd != page && !present(as, runEnd, write)) {
                runEnd += PAGE;
            }
            charged += gup(as, va, (int) ((runEnd - va) / PAGE), write, false);
            for (long q = va; q < runEnd; q += PAGE) {
                mark(pdid, q);
            }
            va = runEnd;
        }
        return charged;
    }

    /** Whether the page at {@code va} is mapped with the access the device needs (a page-table read). */
    private static boolean present(AddressSpace as, long va, boolean write) {
        long pte = as.translate(va);
        return Pte.has(pte, Pte.PRESENT | (write ? Pte.WRITABLE : Pte.READABLE));
    }

    private long gup(AddressSpace as, long va, int pages, boolean write, boolean free) {
        if (pages <= 0) {
            return 0;
        }
        PinResult r = kernel.getUserPages(as, va, pages, write);
        long ps = r.costPs();
        for (int i = 0; i < r.pinned(); i++) {
            ps += kernel.putPage(r.frames()[i]);
        }
        pagesPagedIn.add(r.pinned());
        if (!r.complete()) {
            unresolved.add(pages - r.pinned());
        }
        return free ? 0 : ps;
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

    /** Queues a block for an ERR unless one is already queued and not yet issued. */
    private void queueErr(int qpn, long messageId, int block) {
        for (int k = 0; k < errSize; k++) {
            int i = (errHead + k) % errQpn.length;
            if (errQpn[i] == qpn && errMessage[i] == messageId && errBlock[i] == block) {
                return;
            }
        }
        if (errSize == errQpn.length) {
            growErrs();
        }
        int i = (errHead + errSize) % errQpn.length;
        errQpn[i] = qpn;
        errMessage[i] = messageId;
        errBlock[i] = block;
        errSize++;
    }

    private void growErrs() {
        int n = errQpn.length * 2;
        int[] q = new int[n];
        long[] m = new long[n];
        int[] b = new int[n];
        for (int k = 0; k < errSize; k++) {
            int i = (errHead + k) % errQpn.length;
            q[k] = errQpn[i];
            m[k] = errMessage[i];
            b[k] = errBlock[i];
        }
        errQpn = q;
        errMessage = m;
        errBlock = b;
        errHead = 0;
    }

    // ------------------------------------------------------------------ events

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_HANDLER_DONE -> {
                trace.handlerDone(sim.now());
                tasklet.schedule(0);
            }
            case EV_TASKLET -> {
                trace.taskletDone(sim.now());
                int blocks = errSize - runErrFrom;
                // Netlink wakes the helper: one ERR per failed block, then the rank's thread runs again.
                for (int k = 0; k < blocks; k++) {
                    helper.run(costs.errIssuePs(), this, EV_ERR_ISSUED, 0);
                }
                if (blocks > 0) {
                    rankThread.run(0, this, EV_SWITCHED_BACK, 0);
                }
                runErrFrom = errSize;
                if (path.fifo().size() > 0) {
                    tasklet.schedule(0); // entries beyond one run's reads: run again
                }
            }
            case EV_ERR_ISSUED -> {
                int i = errHead;
                errHead = (errHead + 1) % errQpn.length;
                errSize--;
                runErrFrom = Math.max(0, runErrFrom - 1);
                path.requestRetransmission(errQpn[i], errMessage[i], errBlock[i]);
                errsSent.increment();
                trace.errSent(sim.now());
            }
            case EV_SWITCHED_BACK -> {
                // The rank's own thread holds the core again; nothing to do.
            }
            default -> throw new IllegalStateException("unknown PART driver event " + type);
        }
    }

    /**
     * The first instant of each phase of PART's fault handling since {@link #reset()}: the first
     * fault logged, the first end of the SMMU handler after it, the first tasklet end after that,
     * the first ERR after that; 0 where a phase has not happened.
     */
    public static final class Trace {
        private long fault;
        private long handler;
        private long tasklet;
        private long errSent;

        /** Forgets every instant. */
        public void reset() {
            fault = 0;
            handler = 0;
            tasklet = 0;
            errSent = 0;
        }

        void fault(long ps) {
            if (fault == 0 || ps < fault) {
                fault = ps;
            }
        }

        void handlerDone(long ps) {
            if (handler == 0) {
                handler = ps;
            }
        }

        void taskletDone(long ps) {
            if (tasklet == 0 && handler != 0 && fault != 0) {
                tasklet = ps;
            }
        }

        void errSent(long ps) {
            if (errSent == 0 && tasklet != 0) {
                errSent = ps;
            }
        }

        /** When the first fault was logged, or 0. */
        public long faultPs() {
            return fault;
        }

        /** When the SMMU handler first ended, or 0. */
        public long handlerPs() {
            return handler;
        }

        /** When the first tasklet run that resolved a fault ended, or 0. */
        public long taskletPs() {
            return tasklet;
        }

        /** When the first ERR was sent, or 0. */
        public long errPs() {
            return errSent;
        }
    }
}
