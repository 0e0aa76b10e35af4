package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;

/**
 * One process's virtual memory (Linux's {@code mm_struct}): its VMAs, its page table, its
 * accounting (resident, swapped, locked and pinned pages against RLIMIT_MEMLOCK), its MMU
 * notifier subscriptions and userfaultfd monitors. Changed only through {@link Kernel}.
 */
public final class AddressSpace {
    private final Kernel kernel;
    private final int id;
    final VmaSet vmas = new VmaSet();
    final PageTable pageTable = new PageTable();
    private final MmuNotifiers notifiers = new MmuNotifiers();
    private final List<UserfaultFd> userfaultFds = new ArrayList<>();
    long brkStart;
    long brk;
    long memlockLimitPages;
    boolean capIpcLock;
    boolean alive = true;
    private DontforkRanges dontfork;

    /** Resident 4 KiB pages mapped (a 2 MiB page counts 512). */
    long residentPages;
    /** Pages whose entry names a swap slot. */
    long swapPages;
    /** mm->locked_vm: pages in VM_LOCKED VMAs. */
    long lockedPages;
    /** mm->pinned_vm: pages a driver charged for long-term pins. */
    long pinnedPages;

    long minorFaults;
    long majorFaults;
    long cowFaults;
    long segvs;
    long pins;

    AddressSpace(Kernel kernel, int id, long heapStart, long memlockLimitPages, boolean capIpcLock) {
        this.kernel = kernel;
        this.id = id;
        this.brkStart = heapStart;
        this.brk = heapStart;
        this.memlockLimitPages = memlockLimitPages;
        this.capIpcLock = capIpcLock;
    }

    /** The kernel this address space belongs to. */
    public Kernel kernel() {
        return kernel;
    }

    /** Process-unique id (the PASID/PDID a device uses to find this page table). */
    public int id() {
        return id;
    }

    /** libibverbs' fork protection of this process's registrations (one per process, shared by its users). */
    public DontforkRanges dontforkRanges() {
        if (dontfork == null) {
            dontfork = new DontforkRanges(kernel, this);
        }
        return dontfork;
    }

    /** Whether the process is still alive (not exited). */
    public boolean alive() {
        return alive;
    }

    /**
     * The leaf page-table entry for {@code va} without side effects: a 4 KiB PTE, a 2 MiB entry
     * with {@link Pte#HUGE}, a swap entry, or 0. What an IOMMU walk reads.
     */
    public long translate(long va) {
        return pageTable.leaf(va);
    }

    /**
     * The physical address {@code va} maps to now, or -1 if it is not present. No side effects.
     */
    public long physicalAddress(long va) {
        long pte = pageTable.leaf(va);
        if ((pte & Pte.PRESENT) == 0) {
            return -1;
        }
        if ((pte & Pte.HUGE) != 0) {
            return (Pte.frame(pte) << 12) + (va & (Kernel.HUGE_SIZE - 1));
        }
        return (Pte.frame(pte) << 12) + (va & (Kernel.PAGE_SIZE - 1));
    }

    /** The page table (for IOMMU walks and walk-depth costs; read-only use). */
    public PageTable pageTable() {
        return pageTable;
    }

    /** The VMA containing {@code va}, or null. */
    public Vma vma(long va) {
        return vmas.find(va);
    }

    /** All VMAs in address order (a copy). */
    public List<Vma> vmas() {
        return vmas.all();
    }

    /** MMU interval notifier subscriptions of this address space. */
    public MmuNotifiers notifiers() {
        return notifiers;
    }

    /** Subscribes to invalidations of {@code [start, start+length)} (mmu_interval_notifier_insert). */
    public MmuIntervalNotifier subscribe(long start, long length, MmuInvalidationCallback callback) {
        return notifiers.subscribe(start, length, callback);
    }

    /** Opens a userfaultfd with UNMAP and REMOVE events on this address space. */
    public UserfaultFd openUserfaultFd() {
        UserfaultFd fd = new UserfaultFd(this);
        userfaultFds.add(fd);
        return fd;
    }

    void removeUserfaultFd(UserfaultFd fd) {
        userfaultFds.remove(fd);
    }

    void deliverUserfault(UserfaultEvent.Kind kind, long start, long end) {
        for (UserfaultFd fd : userfaultFds) {
            fd.deliver(kind, start, end);
        }
    }

    /** Current program break. */
    public long brk() {
        return brk;
    }

    /** Where the heap starts. */
    public long brkStart() {
        return brkStart;
    }

    /** RLIMIT_MEMLOCK in pages. */
    public long memlockLimitPages() {
        return memlockLimitPages;
    }

    /** Sets RLIMIT_MEMLOCK (setrlimit), in pages. */
    public void setMemlockLimitPages(long pages) {
        if (pages < 0) {
            throw new IllegalArgumentException("RLIMIT_MEMLOCK cannot be negative: " + pages);
        }
        memlockLimitPages = pages;
    }

    /** Whether the process has CAP_IPC_LOCK (exempt from RLIMIT_MEMLOCK). */
    public boolean capIpcLock() {
        return capIpcLock;
    }

    /** Resident pages. */
    public long residentPages() {
        return residentPages;
    }

    /** Swapped-out pages. */
    public long swapPages() {
        return swapPages;
    }

    /** locked_vm in pages. */
    public long lockedPages() {
        return lockedPages;
    }

    /** pinned_vm in pages. */
    public long pinnedPages() {
        return pinnedPages;
    }

    /** Minor faults (4 KiB and 2 MiB zero-fills, write upgrades). */
    public long minorFaults() {
        return minorFaults;
    }

    /** Major faults (swap-ins). */
    public long majorFaults() {
        return majorFaults;
    }

    /** Copy-on-write breaks. */
    public long cowFaults() {
        return cowFaults;
    }

    /** Accesses refused with SIGSEGV. */
    public long segvs() {
        return segvs;
    }

    /** Pages pinned by get_user_pages. */
    public long pins() {
        return pins;
    }

    /** Heap bytes held by this address space's own structures, roughly. */
    public long footprintBytes() {
        return 128 + vmas.footprintBytes() + pageTable.footprintBytes();
    }
}
