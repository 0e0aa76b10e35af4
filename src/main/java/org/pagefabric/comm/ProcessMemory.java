package org.pagefabric.comm;

import java.util.function.Supplier;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.hw.os.DeviceMemory;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.ForkResult;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.KernelStats;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.MigrateResult;
import org.pagefabric.hw.os.PageOpResult;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.UserAllocator;

/**
 * The memory calls of one process as a program makes them: the system calls that map, unmap and
 * advise its address space, the C library's versions of them that interception hooks hear, and its
 * CPU's loads and stores, each answering the kernel time the caller charges. A rank's comes from
 * {@link Rank#memory()}, so a workload allocates, touches and checks memory without naming its
 * node's kernel; every call is the kernel's own, at the kernel's cost.
 *
 * <p>The {@code hooked} calls go through the process's {@link AllocationHooks} (a dynamically
 * linked C library: registration caches hear them); the plain ones are the system calls a
 * statically linked or custom allocator makes, which no hook sees.
 */
public final class ProcessMemory {
    private final Kernel kernel;
    private final AddressSpace space;
    /** Created on first use, as a rank's endpoint creates its hooks: most processes never need them. */
    private final Supplier<AllocationHooks> hooks;
    private AllocationHooks ownHooks;

    ProcessMemory(Kernel kernel, AddressSpace space, Supplier<AllocationHooks> hooks) {
        this.kernel = kernel;
        this.space = space;
        this.hooks = hooks;
    }

    private ProcessMemory(Kernel kernel, AddressSpace space) {
        this.kernel = kernel;
        this.space = space;
        this.hooks = () -> {
            if (ownHooks == null) {
                ownHooks = new AllocationHooks(kernel, space);
            }
            return ownHooks;
        };
    }

    /**
     * Starts a process of no rank on {@code node} (a background or neighbouring program) with an
     * empty address space.
     *
     * @param memlockLimitPages RLIMIT_MEMLOCK in pages
     * @param capIpcLock        whether it holds CAP_IPC_LOCK (no memlock limit)
     */
    public static ProcessMemory start(Node node, long memlockLimitPages, boolean capIpcLock) {
        Kernel k = node.kernel();
        return new ProcessMemory(k, k.createProcess(memlockLimitPages, capIpcLock));
    }

    /** The process's address space. */
    public AddressSpace space() {
        return space;
    }

    /** mmap of private anonymous memory, the system call itself (see {@link Kernel#mmap}). */
    public MapResult mmap(long addr, long length, int prot, int flags) {
        return kernel.mmap(space, addr, length, prot, flags);
    }

    /** mmap through the C library, whose hooks hear it (see {@link AllocationHooks#mmap}). */
    public MapResult hookedMmap(long addr, long length, int prot, int flags) {
        return hooks.get().mmap(addr, length, prot, flags);
    }

    /** munmap, the system call itself; returns kernel time (see {@link Kernel#munmap}). */
    public long munmap(long addr, long length) {
        return kernel.munmap(space, addr, length);
    }

    /** munmap through the C library, whose hooks hear it; returns kernel time. */
    public long hookedMunmap(long addr, long length) {
        return hooks.get().munmap(addr, length);
    }

    /** brk, the system call itself: moves the program break (see {@link Kernel#brk}). */
    public MapResult brk(long newBrk) {
        return kernel.brk(space, newBrk);
    }

    /** brk through the C library, whose hooks hear it. */
    public MapResult hookedBrk(long newBrk) {
        return hooks.get().brk(newBrk);
    }

    /** madvise, the system call itself; returns kernel time (see {@link Kernel#madvise}). */
    public long madvise(long addr, long length, Advice advice) {
        return kernel.madvise(space, addr, length, advice);
    }

    /** madvise(MADV_DONTNEED) through the C library, whose hooks hear it; returns kernel time. */
    public long hookedMadviseDontneed(long addr, long length) {
        return hooks.get().madviseDontneed(addr, length);
    }

    /** mprotect of a fully mapped range; returns kernel time (see {@link Kernel#mprotect}). */
    public long mprotect(long addr, long length, int prot) {
        return kernel.mprotect(space, addr, length, prot);
    }

    /**
     * A C library allocator (malloc and free) over this process's memory; a dynamically linked one
     * makes its calls through the process's hooks.
     */
    public UserAllocator allocator(UserAllocator.Config config) {
        return new UserAllocator(kernel, space, config, hooks.get());
    }

    /** A CPU access to {@code va}, resolving the fault it takes if any (see {@link Kernel#touch}). */
    public Fault touch(long va, boolean write) {
        return kernel.touch(space, va, write);
    }

    /** CPU reads of {@code len} bytes at {@code va} into {@code dst}, faulting pages in; returns kernel time. */
    public long read(long va, byte[] dst, int off, int len) {
        return kernel.read(space, va, dst, off, len);
    }

    /** CPU writes of {@code len} bytes from {@code src} at {@code va}, faulting pages in; returns kernel time. */
    public long write(long va, byte[] src, int off, int len) {
        return kernel.write(space, va, src, off, len);
    }

    /**
     * CPU writes of bytes {@code [pos, pos+len)} of the content stream {@code tag} at {@code va},
     * held as tags rather than bytes (see {@link Kernel#writeTag}); returns kernel time.
     */
    public long writeTag(long va, long len, long tag, long pos) {
        return kernel.writeTag(space, va, len, tag, pos);
    }

    /**
     * Whether {@code [va, va+len)} holds bytes {@code [pos, pos+len)} of the stream {@code tag}:
     * an inspection, without faults or cost.
     */
    public boolean verifyTag(long va, long len, long tag, long pos) {
        return kernel.verifyTag(space, va, len, tag, pos);
    }

    /**
     * Whether {@code [va, va+len)} holds exactly the bytes that {@code [otherVa, otherVa+len)} of
     * {@code other} holds, on this node or another (see {@link Kernel#sameBytes}): an inspection,
     * without faults or cost.
     */
    public boolean sameBytes(long va, ProcessMemory other, long otherVa, long len) {
        return kernel.sameBytes(space, va, other.kernel, other.space, otherVa, len);
    }

    /** The content digest of {@code [va, va+len)} as it is now: an inspection, without faults or cost. */
    public long digest(long va, long len) {
        return kernel.digest(space, va, len);
    }

    /**
     * Whether the page at {@code va} is held resident (pinned or mlocked), so that a model making
     * pages non-present leaves it alone (see {@link Kernel#heldResident}).
     */
    public boolean heldResident(long va) {
        return kernel.heldResident(space, va);
    }

    /** get_user_pages: faults in and pins {@code npages} pages from {@code va} (see {@link Kernel#getUserPages}). */
    public PinResult getUserPages(long va, int npages, boolean write) {
        return kernel.getUserPages(space, va, npages, write);
    }

    /** put_page: drops one pin of {@code frame} (a pin {@link #getUserPages} took); returns kernel time. */
    public long putPage(long frame) {
        return kernel.putPage(frame);
    }

    /** Migrates the {@code pages} pages mapped from {@code va}, as NUMA balancing does (see {@link Kernel#migrateRange}). */
    public MigrateResult migrateRange(long va, int pages) {
        return kernel.migrateRange(space, va, pages);
    }

    /**
     * The exporter moving the device-memory buffer at {@code [addr, addr+length)} to new frames
     * (see {@link Kernel#moveDeviceBuffer}).
     */
    public PageOpResult moveDeviceBuffer(long addr, long length) {
        return kernel.moveDeviceBuffer(space, addr, length);
    }

    /** The node's device memory, which exports dma-bufs. */
    public DeviceMemory deviceMemory() {
        return kernel.deviceMemory();
    }

    /** The statistics of the node's kernel, which every process on the node shares. */
    public KernelStats kernelStats() {
        return kernel.stats();
    }

    /** A child made by {@link #fork()} and the kernel time the fork took. */
    public record Forked(ProcessMemory child, long costPs) {
    }

    /** fork: a child sharing the process's private pages copy-on-write (see {@link Kernel#fork}). */
    public Forked fork() {
        ForkResult f = kernel.fork(space);
        return new Forked(new ProcessMemory(kernel, f.child()), f.costPs());
    }

    /** exit: tears the address space down; returns kernel time. */
    public long exit() {
        return kernel.exit(space);
    }
}
