package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.hw.mem.ContentDigest;
import org.pagefabric.hw.mem.FrameTable;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * A node's kernel memory manager: processes' address spaces over one {@link PhysicalMemory} and
 * one {@link Swap}. Functionally real (bytes move, pages fault, pins pin) and costed: every
 * operation returns what happened and the CPU time it took, summed from {@link OsCosts}; it does
 * not advance simulated time itself (the CPU model charges the time to a core).
 *
 * <p>This class holds the system calls (mmap, munmap, brk, mprotect, madvise, fork, exit) and CPU
 * accesses. The bookkeeping every feature shares (mapping frames with their map counts and
 * reverse map, invalidation brackets, huge page splits) is {@link PageMapper}'s; the uncosted
 * checks of what memory holds are {@link ContentInspection}'s. The features live in their own
 * classes behind it: {@link FaultHandler}, {@link Pinning}, {@link Mlock}, {@link Reclaimer},
 * {@link Migration}, {@link HugePages}, {@link Forker}.
 *
 * <p>Single-threaded and deterministic, like the rest of the simulator: iteration orders are
 * address or insertion orders, never hash orders.
 */
public final class Kernel {
    /** Bytes per small page: the memory model's {@link PhysicalMemory#PAGE_SIZE}, as a long for address arithmetic. */
    public static final long PAGE_SIZE = PhysicalMemory.PAGE_SIZE;
    /** Bytes per transparent huge page. */
    public static final long HUGE_SIZE = PAGE_SIZE * PhysicalMemory.HUGE_FRAMES;
    static final int HUGE_PAGES = PhysicalMemory.HUGE_FRAMES;
    /** PTE bits a device or Active Access owns: kept when the kernel rewrites an entry. */
    static final long DEVICE_BITS = Pte.WL | Pte.WLD | Pte.RL | Pte.RLD | Pte.E | Pte.withIuid(0, Pte.MAX_IUID);
    /** PTE bits a copy in another process (fork) may inherit. */
    static final long INHERITED_BITS = Pte.PRESENT | Pte.WRITABLE | Pte.READABLE | Pte.ACCESSED | Pte.DIRTY
            | Pte.HUGE | Pte.COW;

    final PhysicalMemory memory;
    final FrameTable frames;
    final Swap swap;
    final OsCosts costs;
    final KernelConfig config;
    final ReverseMap rmap;
    final KernelStats stats;
    private final List<AddressSpace> spaces = new ArrayList<>();
    /** Hears pins and faults for a timeline; null (no cost but a test) otherwise. */
    private KernelObserver observer;

    final FaultHandler faults;
    final Pinning pinning;
    final Mlock mlock;
    final Reclaimer reclaimer;
    final Migration migration;
    final HugePages hugePages;
    final Forker forker;
    final DeviceMemoryMove deviceMoves;
    private final DeviceMemory deviceMemory;
    /** The mapping primitives the system calls and the features share. */
    final PageMapper mapper;
    /** The uncosted reads that check what memory holds. */
    private final ContentInspection inspection;

    /** Running sum of every cost charged; an operation's cost is the difference across it. */
    long spent;
    /** The hypervisor's second stage when this kernel runs in a virtual machine, else null. */
    HostStage host;

    /**
     * A memory manager.
     *
     * @param memory     the node's RAM
     * @param swap       the swap device (0 slots: no swap)
     * @param costs      what each operation costs
     * @param config     policy and layout
     * @param statistics where the counters are declared
     * @param name       counter name prefix, e.g. {@code node3.os}
     */
    public Kernel(PhysicalMemory memory, Swap swap, OsCosts costs, KernelConfig config,
            StatisticsRegistry statistics, String name) {
        this.memory = memory;
        this.frames = memory.frames();
        this.swap = swap;
        this.costs = costs;
        this.config = config;
        this.rmap = new ReverseMap(memory.capacityFrames());
        this.stats = new KernelStats(statistics, name);
        this.mapper = new PageMapper(this);
        this.inspection = new ContentInspection(this);
        this.faults = new FaultHandler(this);
        this.pinning = new Pinning(this);
        this.mlock = new Mlock(this);
        this.reclaimer = new Reclaimer(this);
        this.migration = new Migration(this);
        this.hugePages = new HugePages(this);
        this.forker = new Forker(this);
        this.deviceMoves = new DeviceMemoryMove(this);
        this.deviceMemory = new DeviceMemory(this);
    }

    /** The node's device-memory exporter (a GPU driver's allocator sharing buffers as dma-bufs). */
    public DeviceMemory deviceMemory() {
        return deviceMemory;
    }

    /** The RAM. */
    public PhysicalMemory memory() {
        return memory;
    }

    /** The swap device. */
    public Swap swap() {
        return swap;
    }

    /** The costs in use. */
    public OsCosts costs() {
        return costs;
    }

    /** The configuration. */
    public KernelConfig config() {
        return config;
    }

    /** The counters. */
    public KernelStats stats() {
        return stats;
    }

    // ---------------------------------------------------------------- processes

    /**
     * A new process with an empty address space.
     *
     * @param memlockLimitPages RLIMIT_MEMLOCK in pages
     * @param capIpcLock        whether it holds CAP_IPC_LOCK (no memlock limit)
     */
    public AddressSpace createProcess(long memlockLimitPages, boolean capIpcLock) {
        if (memlockLimitPages < 0) {
            throw new IllegalArgumentException("RLIMIT_MEMLOCK cannot be negative: " + memlockLimitPages);
        }
        AddressSpace as = new AddressSpace(this, spaces.size(), config.heapStart(), memlockLimitPages, capIpcLock);
        spaces.add(as);
        return as;
    }

    /** The address space with this id. */
    public AddressSpace space(int id) {
        return spaces.get(id);
    }

    /** Every address space ever created, by id (exited ones included). */
    public List<AddressSpace> spaces() {
        return List.copyOf(spaces);
    }

    // ---------------------------------------------------------------- system calls

    /**
     * mmap of private anonymous memory.
     *
     * @param addr   the address for {@link MapFlags#FIXED} (else a hint, used if free and aligned)
     * @param length bytes (rounded up to pages)
     * @param prot   {@link Prot} bits
     * @param flags  {@link MapFlags} bits
     * @throws OsException EINVAL (bad arguments), ENOMEM (no room), EAGAIN (MAP_LOCKED over
     *                     RLIMIT_MEMLOCK)
     */
    public MapResult mmap(AddressSpace as, long addr, long length, int prot, int flags) {
        long mark = spent;
        checkAlive(as);
        if (length <= 0 || !Prot.valid(prot)) {
            throw new OsException(Errno.EINVAL, "mmap length " + length + " prot " + prot, 0);
        }
        long len = pageUp(length);
        charge(costs.mmapPs());
        long start;
        if ((flags & MapFlags.FIXED) != 0) {
            if ((addr & (PAGE_SIZE - 1)) != 0 || addr < PAGE_SIZE || addr + len > PageTable.USER_TOP) {
                throw new OsException(Errno.EINVAL, "MAP_FIXED address " + Long.toHexString(addr), spent - mark);
            }
            start = addr;
            mapper.unmapRange(as, start, start + len, InvalidationReason.UNMAP, UserfaultEvent.Kind.UNMAP);
        } else {
            long align = len >= HUGE_SIZE && config.thp() != ThpMode.NEVER ? HUGE_SIZE : PAGE_SIZE;
            if (addr != 0 && (addr & (align - 1)) == 0 && addr >= config.mmapBottom() && addr + len <= config.mmapTop()
                    && as.vmas.overlapping(addr, addr + len).isEmpty()) {
                start = addr;
            } else {
                start = as.vmas.findGapTopDown(len, align, config.mmapBottom(), config.mmapTop());
                if (start < 0) {
                    throw new OsException(Errno.ENOMEM, "no " + len + "-byte gap in the mmap area", spent - mark);
                }
            }
        }
        boolean locked = (flags & MapFlags.LOCKED) != 0;
        if (locked && !as.capIpcLock && as.lockedPages + len / PAGE_SIZE > as.memlockLimitPages) {
            throw new OsException(Errno.EAGAIN, "MAP_LOCKED of " + len / PAGE_SIZE + " pages over RLIMIT_MEMLOCK "
                    + as.memlockLimitPages, spent - mark);
        }
        if (as.vmas.size() > config.maxMapCount()) {
            // do_mmap refuses a new mapping once map_count exceeds the limit (mm/mmap.c); a fixed
            // mapping that replaced others may have freed room, hence the check after the unmap
            throw new OsException(Errno.ENOMEM, "mmap: the process has " + as.vmas.size()
                    + " VMAs, vm.max_map_count is " + config.maxMapCount(), spent - mark);
        }
        Vma v = new Vma(start, start + len, prot, locked ? Vma.LOCKED : 0);
        as.vmas.insert(v);
        if (locked) {
            as.lockedPages += len / PAGE_SIZE;
        }
        if (locked || (flags & MapFlags.POPULATE) != 0) {
            mapper.populate(as, start, start + len);
        }
        return new MapResult(start, spent - mark);
    }

    /**
     * munmap: removes the mappings of {@code [addr, addr+length)}. MMU notifiers and userfaultfd
     * monitors hear of it; frames still pinned stay allocated until their last put_page.
     *
     * @return kernel time in picoseconds
     * @throws OsException EINVAL for an unaligned address or empty length
     */
    public long munmap(AddressSpace as, long addr, long length) {
        long mark = spent;
        checkAlive(as);
        if ((addr & (PAGE_SIZE - 1)) != 0 || length <= 0 || addr + length > PageTable.USER_TOP) {
            throw new OsException(Errno.EINVAL, "munmap [" + Long.toHexString(addr) + ", +" + length + ")", 0);
        }
        charge(costs.munmapBasePs());
        mapper.unmapRange(as, addr, addr + pageUp(length), InvalidationReason.UNMAP, UserfaultEvent.Kind.UNMAP);
        return spent - mark;
    }

    /**
     * brk: moves the program break. Growing extends the heap VMA if nothing is in the way;
     * shrinking unmaps the pages above the new break (notifiers and userfaultfd see an unmap).
     * Like Linux, a refused request returns the old break rather than an error.
     */
    public MapResult brk(AddressSpace as, long newBrk) {
        long mark = spent;
        checkAlive(as);
        charge(costs.mmapPs());
        if (newBrk < as.brkStart) {
            return new MapResult(as.brk, spent - mark);
        }
        long oldEnd = pageUp(as.brk);
        long newEnd = pageUp(newBrk);
        if (newEnd > oldEnd) {
            if (newEnd > config.mmapBottom() || !as.vmas.overlapping(oldEnd, newEnd).isEmpty()) {
                return new MapResult(as.brk, spent - mark);
            }
            Vma last = oldEnd > as.brkStart ? as.vmas.find(oldEnd - 1) : null;
            if (last != null && last.has(Vma.HEAP) && last.end() == oldEnd) {
                last.setEnd(newEnd);
                if (last.has(Vma.LOCKED)) {
                    as.lockedPages += (newEnd - oldEnd) / PAGE_SIZE;
                }
            } else {
                as.vmas.insert(new Vma(oldEnd, newEnd, Prot.READ_WRITE, Vma.HEAP));
            }
        } else if (newEnd < oldEnd) {
            charge(costs.munmapBasePs());
            mapper.unmapRange(as, newEnd, oldEnd, InvalidationReason.UNMAP, UserfaultEvent.Kind.UNMAP);
        }
        as.brk = newBrk;
        return new MapResult(newBrk, spent - mark);
    }

    /**
     * mprotect: changes the protection of a fully mapped range. Removing write access
     * write-protects the pages; granting it does not touch PTEs (the next write faults and is
     * upgraded, or copied if the page is shared).
     *
     * @throws OsException EINVAL (unaligned, bad prot), ENOMEM (range not fully mapped)
     */
    public long mprotect(AddressSpace as, long addr, long length, int prot) {
        long mark = spent;
        checkAlive(as);
        if ((addr & (PAGE_SIZE - 1)) != 0 || length <= 0 || !Prot.valid(prot)) {
            throw new OsException(Errno.EINVAL, "mprotect [" + Long.toHexString(addr) + ", +" + length + ") prot " + prot, 0);
        }
        long end = addr + pageUp(length);
        charge(costs.mprotectBasePs());
        if (!as.vmas.covers(addr, end)) {
            throw new OsException(Errno.ENOMEM, "mprotect of a range with unmapped holes", spent - mark);
        }
        checkMapCount(as, as.vmas.splitsNeeded(addr, end), mark);
        mapper.splitHugeAt(as, addr);
        mapper.splitHugeAt(as, end);
        as.vmas.splitAt(addr);
        as.vmas.splitAt(end);
        for (Vma v : as.vmas.overlapping(addr, end)) {
            v.setProt(prot);
        }
        mapper.invalidateStart(as, addr, end, InvalidationReason.PROTECTION);
        long[] present = {0};
        as.pageTable.forEach(addr, end, (va, table, index, huge) -> {
            long pte = table[index];
            if ((pte & Pte.PRESENT) == 0) {
                return;
            }
            long w = (prot & Prot.WRITE) != 0 ? pte & Pte.WRITABLE : 0;
            long r = (prot & Prot.READ) != 0 ? Pte.READABLE : 0;
            table[index] = (pte & ~(Pte.WRITABLE | Pte.READABLE)) | w | r;
            present[0] += huge ? HUGE_PAGES : 1;
        });
        mapper.invalidateEnd(as, addr, end, InvalidationReason.PROTECTION);
        charge(costs.mprotectPerPagePs() * present[0]);
        return spent - mark;
    }

    /**
     * madvise. DONTNEED drops the pages of a range (it reads as zeros afterwards), as an
     * allocator does to give memory back without unmapping; HUGEPAGE and NOHUGEPAGE set the THP
     * policy of the range; DONTFORK and DOFORK whether fork copies it into the child.
     *
     * @throws OsException EINVAL (unaligned; DONTNEED on mlocked memory), ENOMEM (range not fully mapped)
     */
    public long madvise(AddressSpace as, long addr, long length, Advice advice) {
        long mark = spent;
        checkAlive(as);
        if ((addr & (PAGE_SIZE - 1)) != 0 || length <= 0) {
            throw new OsException(Errno.EINVAL, "madvise [" + Long.toHexString(addr) + ", +" + length + ")", 0);
        }
        long end = addr + pageUp(length);
        charge(costs.munmapBasePs());
        if (!as.vmas.covers(addr, end)) {
            throw new OsException(Errno.ENOMEM, "madvise of a range with unmapped holes", spent - mark);
        }
        switch (advice) {
            case DONTNEED -> {
                for (Vma v : as.vmas.overlapping(addr, end)) {
                    if (v.has(Vma.LOCKED)) {
                        throw new OsException(Errno.EINVAL, "MADV_DONTNEED on mlocked memory", spent - mark);
                    }
                }
                as.deliverUserfault(UserfaultEvent.Kind.REMOVE, addr, end);
                long present = mapper.zapPages(as, addr, end, InvalidationReason.DONTNEED);
                charge(costs.munmapPerPagePs() * present);
                mapper.freeTables(as, addr, end);
            }
            case HUGEPAGE, NOHUGEPAGE -> {
                checkMapCount(as, as.vmas.splitsNeeded(addr, end), mark);
                as.vmas.splitAt(addr);
                as.vmas.splitAt(end);
                int set = advice == Advice.HUGEPAGE ? Vma.HUGEPAGE : Vma.NOHUGEPAGE;
                int clear = advice == Advice.HUGEPAGE ? Vma.NOHUGEPAGE : Vma.HUGEPAGE;
                for (Vma v : as.vmas.overlapping(addr, end)) {
                    v.setFlags((v.flags() | set) & ~clear);
                }
            }
            case DONTFORK, DOFORK -> {
                checkMapCount(as, as.vmas.splitsNeeded(addr, end), mark);
                as.vmas.splitAt(addr);
                as.vmas.splitAt(end);
                for (Vma v : as.vmas.overlapping(addr, end)) {
                    v.setFlags(advice == Advice.DONTFORK ? v.flags() | Vma.DONTCOPY : v.flags() & ~Vma.DONTCOPY);
                }
                // madvise_update_vma merges the changed VMAs with agreeing neighbours, so DOFORK heals
                // the splits its DONTFORK made (mm/madvise.c, vma_modify_flags).
                as.vmas.mergeAround(addr, end);
            }
            default -> throw new IllegalStateException("unhandled advice " + advice);
        }
        return spent - mark;
    }

    /**
     * ENOMEM if {@code splits} more VMAs would take the process past vm.max_map_count: each split
     * is refused once map_count has reached the limit (mm/vma.c, split_vma).
     */
    private void checkMapCount(AddressSpace as, int splits, long mark) {
        if (splits > 0 && as.vmas.size() + splits - 1 >= config.maxMapCount()) {
            throw new OsException(Errno.ENOMEM, "splitting a VMA: the process has " + as.vmas.size()
                    + " VMAs, vm.max_map_count is " + config.maxMapCount(), spent - mark);
        }
    }

    /** VMAs of a process: the lines of /proc/PID/maps that vm.max_map_count bounds. */
    public int mapCount(AddressSpace as) {
        return as.vmas.size();
    }

    /**
     * fork: a child sharing every private page copy-on-write, except ranges marked
     * {@link Advice#DONTFORK}; pinned pages as {@link KernelConfig#forkPinned()} says.
     */
    public ForkResult fork(AddressSpace parent) {
        checkAlive(parent);
        return forker.fork(parent);
    }

    /**
     * exit: tears the address space down (notifiers see RELEASE). Pinned frames stay allocated
     * until their pins are released.
     */
    public long exit(AddressSpace as) {
        long mark = spent;
        checkAlive(as);
        charge(costs.munmapBasePs());
        mapper.unmapRange(as, 0, PageTable.USER_TOP, InvalidationReason.RELEASE, null);
        as.alive = false;
        return spent - mark;
    }

    // ---------------------------------------------------------------- faults and accesses

    /**
     * A CPU access to {@code va}: sets the accessed (and dirty) bits if the page is present with
     * the needed permission, else resolves the fault (zero-fill, swap-in, COW) or refuses it.
     */
    public Fault touch(AddressSpace as, long va, boolean write) {
        Fault f = faults.access(as, va, write);
        if (observer != null && f.costPs() > 0) {
            observer.faulted(as, va, f);
        }
        return f;
    }

    /** Makes {@code o} hear pins and faults from now on; {@code null} stops it (see {@link KernelObserver}). */
    public void observe(KernelObserver o) {
        this.observer = o;
    }

    /**
     * A device access through the IOMMU to {@code va}: if the page is present and the entry
     * permits it ({@link Pte#WRITABLE} for writes, {@link Pte#READABLE} for reads), sets the
     * accessed (and dirty) bits and returns the entry; otherwise returns 0 and changes nothing
     * (the IOMMU raises a fault; resolving it is the driver's business, e.g. get_user_pages).
     */
    public long deviceAccess(AddressSpace as, long va, boolean write) {
        long pte = as.pageTable.leaf(va);
        long need = Pte.PRESENT | (write ? Pte.WRITABLE : Pte.READABLE);
        if ((pte & need) != need) {
            return 0;
        }
        long updated = pte | Pte.ACCESSED | (write ? Pte.DIRTY : 0);
        if (updated != pte) {
            as.pageTable.setLeaf(va, updated);
        }
        return updated;
    }

    /**
     * Sets and clears the device-owned bits of a present entry (Active Access log controls WL,
     * WLD, RL, RLD, E and the IUID), which the kernel keeps across its own rewrites and swap.
     *
     * @return the new entry, or 0 if {@code va} is not mapped
     */
    public long setDeviceBits(AddressSpace as, long va, long set, long clear) {
        if (((set | clear) & ~DEVICE_BITS) != 0) {
            throw new IllegalArgumentException("only Active Access bits and the IUID may be set this way: "
                    + Long.toHexString((set | clear) & ~DEVICE_BITS));
        }
        long pte = as.pageTable.leaf(va);
        if (pte == 0) {
            return 0;
        }
        long updated = (pte & ~clear) | set;
        as.pageTable.setLeaf(va, updated);
        return updated;
    }

    /** CPU reads of {@code len} bytes at {@code va} (faulting pages in). Returns kernel time. */
    public long read(AddressSpace as, long va, byte[] dst, int off, int len) {
        long mark = spent;
        for (PageSpans s = new PageSpans(va, va, len); s.next(); ) {
            memory.read(frameForAccess(as, s.at(), false, mark), s.offset(), dst, off + (int) s.done(), s.n());
        }
        return spent - mark;
    }

    /** CPU writes of {@code len} bytes at {@code va} (faulting pages in, breaking COW). Returns kernel time. */
    public long write(AddressSpace as, long va, byte[] src, int off, int len) {
        long mark = spent;
        for (PageSpans s = new PageSpans(va, va, len); s.next(); ) {
            memory.write(frameForAccess(as, s.at(), true, mark), s.offset(), src, off + (int) s.done(), s.n());
        }
        return spent - mark;
    }

    /**
     * CPU writes of tagged bulk data: bytes {@code [pos, pos+len)} of the stream {@code tag} at
     * {@code va}, held as tags rather than bytes. Returns kernel time.
     */
    public long writeTag(AddressSpace as, long va, long len, long tag, long pos) {
        long mark = spent;
        for (PageSpans s = new PageSpans(va, va, len); s.next(); ) {
            memory.writeTag(frameForAccess(as, s.at(), true, mark), s.offset(), s.n(), tag, pos + s.done());
        }
        return spent - mark;
    }

    /**
     * Inspection without side effects (no faults, no accessed bits): reads what {@code va}
     * holds now, from its frame or its swap slot; unmapped or untouched bytes read as zero.
     */
    public void peek(AddressSpace as, long va, byte[] dst, int off, int len) {
        inspection.peek(as, va, dst, off, len);
    }

    /** Inspection: whether {@code [va, va+len)} holds stream bytes {@code [pos, pos+len)} of {@code tag}. */
    public boolean verifyTag(AddressSpace as, long va, long len, long tag, long pos) {
        return inspection.verifyTag(as, va, len, tag, pos);
    }

    /**
     * Inspection: whether {@code [va, va+len)} of {@code as} holds exactly the bytes that
     * {@code [vb, vb+len)} of {@code bs} holds in {@code other} (this kernel or another node's).
     * Where a page holds one content tag's run the other side is checked against the tag
     * without rendering either, so checking a large tagged transfer costs per page, not per
     * byte; any other content is compared byte for byte.
     */
    public boolean sameBytes(AddressSpace as, long va, Kernel other, AddressSpace bs, long vb, long len) {
        return inspection.sameBytes(as, va, other.inspection, bs, vb, len);
    }

    /** Inspection: the {@link ContentDigest} of {@code [va, va+len)} as it is now. */
    public long digest(AddressSpace as, long va, long len) {
        return inspection.digest(as, va, len);
    }


    private long frameForAccess(AddressSpace as, long va, boolean write, long mark) {
        Fault f = faults.access(as, va, write);
        if (!f.resolved()) {
            throw new OsException(f.kind() == FaultKind.OOM ? Errno.ENOMEM : Errno.EFAULT,
                    f.kind() + " at " + Long.toHexString(va) + (write ? " (write)" : " (read)"), spent - mark);
        }
        return frameOf(as.pageTable.leaf(va), va);
    }

    /** The 4 KiB frame a present entry maps {@code va} to (a huge entry's frame plus the offset). */
    static long frameOf(long pte, long va) {
        long f = Pte.frame(pte);
        return (pte & Pte.HUGE) != 0 ? f + ((va & (HUGE_SIZE - 1)) >>> 12) : f;
    }

    // ---------------------------------------------------------------- pinning, locking, paging

    /**
     * get_user_pages (FOLL_PIN): faults in and pins {@code npages} pages from {@code va}.
     * Does not charge RLIMIT_MEMLOCK: drivers that pin long-term do that with
     * {@link #chargePinned(AddressSpace, long)}, as ib_umem_get does.
     */
    public PinResult getUserPages(AddressSpace as, long va, int npages, boolean write) {
        PinResult r = pinning.getUserPages(as, va, npages, write);
        if (observer != null) {
            observer.pinned(as, va, r.pinned(), r.costPs());
        }
        return r;
    }

    /**
     * Whether the page at {@code va} is held resident: pinned by get_user_pages or in an mlocked
     * VMA. Reclaim never takes such a page, so a model that makes pages non-present (a fault
     * experiment) leaves it alone.
     */
    public boolean heldResident(AddressSpace as, long va) {
        Vma v = as.vma(va);
        if (v != null && v.has(Vma.LOCKED)) {
            return true;
        }
        long pte = as.pageTable.leaf(va);
        return (pte & Pte.PRESENT) != 0 && frames.pinCount(frameOf(pte, va)) > 0;
    }

    /** put_page (unpin_user_page): drops one pin; a frame nothing maps any more is freed. Returns kernel time. */
    public long putPage(long frame) {
        return pinning.putPage(frame);
    }

    /** Charges {@code pages} to pinned_vm against RLIMIT_MEMLOCK; ENOMEM over the limit. */
    public void chargePinned(AddressSpace as, long pages) {
        pinning.charge(as, pages);
    }

    /** Returns {@code pages} of pinned_vm. */
    public void unchargePinned(AddressSpace as, long pages) {
        pinning.uncharge(as, pages);
    }

    /** mlock: locks and populates a range, charged to RLIMIT_MEMLOCK (ENOMEM over it). Returns kernel time. */
    public long mlock(AddressSpace as, long addr, long length) {
        checkAlive(as);
        return mlock.lock(as, addr, length);
    }

    /** munlock. Returns kernel time. */
    public long munlock(AddressSpace as, long addr, long length) {
        checkAlive(as);
        return mlock.unlock(as, addr, length);
    }

    /**
     * Runs this kernel as a guest over the hypervisor's second stage {@code stage}: its frames are
     * guest-physical, and each page it pins is pinned in the host too.
     *
     * @throws IllegalStateException if it already runs over one
     */
    public void runOver(HostStage stage) {
        if (host != null) {
            throw new IllegalStateException("this kernel already runs over a host stage");
        }
        host = stage;
    }

    /** The hypervisor's second stage this kernel runs over, or null on bare metal. */
    public HostStage hostStage() {
        return host;
    }

    /** Sees one virtual page mapping a frame. */
    @FunctionalInterface
    public interface MappingVisitor {
        /** {@code as} maps the frame at {@code va}. */
        void mapping(AddressSpace as, long va);
    }

    /**
     * Calls {@code v} for every (address space, virtual page) mapping the 4 KiB frame
     * {@code frame}, through the reverse map (a frame inside a 2 MiB page through its head's).
     */
    public void forEachMapping(long frame, MappingVisitor v) {
        int n = rmap.count(frame);
        if (n > 0) {
            for (int i = 0; i < n; i++) {
                long m = rmap.get(frame, i);
                v.mapping(spaces.get(ReverseMap.asId(m)), ReverseMap.va(m));
            }
            return;
        }
        long head = frame & -HUGE_PAGES;
        n = head == frame ? 0 : rmap.count(head);
        for (int i = 0; i < n; i++) {
            long m = rmap.get(head, i);
            AddressSpace as = spaces.get(ReverseMap.asId(m));
            long va = ReverseMap.va(m);
            if ((as.pageTable.leaf(va) & Pte.HUGE) != 0) {
                v.mapping(as, va + (frame - head) * PAGE_SIZE);
            }
        }
    }

    /** Reclaims up to {@code pages} pages to swap (kswapd's work, on demand). */
    public ReclaimResult reclaim(long pages) {
        return reclaimer.reclaim(pages);
    }

    /** Migrates the page mapped at {@code va} to another frame; pinned pages are refused (EBUSY). */
    public PageOpResult migrate(AddressSpace as, long va) {
        return migration.migrate(as, va);
    }

    /**
     * Migrates the {@code pages} pages mapped from {@code va} (NUMA balancing moving a range), with
     * the notifier ranges {@link KernelConfig#unmapBatch()} allows; pages that cannot move (pinned,
     * not present) are skipped.
     *
     * @return pages moved and the kernel time
     */
    public MigrateResult migrateRange(AddressSpace as, long va, int pages) {
        return migration.migrateRange(as, va, pages);
    }

    /** Migrates the page in {@code frame} (a head for a huge page) to another frame. */
    public PageOpResult migrateFrame(long frame) {
        return migration.migrateFrame(frame);
    }

    /**
     * An exporter moving the device-memory buffer at {@code [addr, addr+length)} (dma-buf
     * eviction or migration): every present page to a new frame under one invalidation of the
     * whole range, or nothing (EBUSY) if any page is pinned, as a static attachment pins it.
     */
    public PageOpResult moveDeviceBuffer(AddressSpace as, long addr, long length) {
        checkAlive(as);
        if ((addr & (PAGE_SIZE - 1)) != 0 || length <= 0) {
            throw new OsException(Errno.EINVAL, "device buffer [" + Long.toHexString(addr) + ", +" + length + ")", 0);
        }
        return deviceMoves.move(as, addr, addr + pageUp(length));
    }

    /** khugepaged: collapses the 2 MiB-aligned block containing {@code va} into one huge page. */
    public PageOpResult collapseHuge(AddressSpace as, long va) {
        return hugePages.collapse(as, va);
    }

    /** Splits the huge page mapped at {@code va} into 512 small pages (in every process mapping it). */
    public PageOpResult splitHuge(AddressSpace as, long va) {
        return hugePages.split(as, va);
    }

    /**
     * Adds the time an MMU-notifier callback waited for a device to the mapping change that
     * called it (an ATS Invalidation Completion the IOMMU driver waits for before the change
     * goes on): the munmap, madvise or migration that invalidated returns it in its cost.
     */
    public void chargeNotifierWait(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("a notifier wait must not be negative, got " + ps);
        }
        charge(ps);
    }

    // ---------------------------------------------------------------- shared internals

    void charge(long ps) {
        spent += ps;
    }

    void checkAlive(AddressSpace as) {
        if (!as.alive) {
            throw new IllegalStateException("address space " + as.id() + " has exited");
        }
    }

    static long pageUp(long v) {
        return (v + PAGE_SIZE - 1) & -PAGE_SIZE;
    }

    /** Heap bytes held by the whole memory manager (RAM model, swap tables, address spaces). */
    public long footprintBytes() {
        long bytes = 256 + memory.footprintBytes() + swap.footprintBytes() + rmap.footprintBytes();
        for (AddressSpace as : spaces) {
            bytes += as.footprintBytes();
        }
        return bytes;
    }
}
