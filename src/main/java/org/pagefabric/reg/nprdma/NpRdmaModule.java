package org.pagefabric.reg.nprdma;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.LongHashSet;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.FaultKind;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PageTable;

/**
 * NP-RDMA's kernel module on one node: for each registered process, the status of its pages (a
 * page is <em>present</em> once the module has it mapped in the IOMMU for the NIC), kept by an MMU
 * notifier, and the software fault path that makes missing pages present.
 *
 * <p>Nothing is pinned. The notifier clears the status of every page the kernel unmaps, moves or
 * swaps out, and with it the status each peer's library holds of those pages, so the next verb on
 * them finds them missing and asks the module to resolve them before the NIC is told of the verb.
 * The module resolves a missing page as get_user_pages without FOLL_PIN does (a minor fault, or a
 * major one from swap, as the kernel finds the page) and maps it in the IOMMU.
 */
final class NpRdmaModule {
    /** The module's view of one process. */
    private static final class Status {
        /** Page numbers (va / 4 KiB) present to the NIC. */
        final LongHashSet present = new LongHashSet();
        /** The peers' copies of the status of this process's pages, cleared with it. */
        final List<LongHashSet> views = new ArrayList<>();
    }

    private final Kernel kernel;
    private final long iommuMapPs;
    private final Map<AddressSpace, Status> processes = new IdentityHashMap<>();
    private long minorFaults;
    private long majorFaults;
    private long pagesMapped;

    NpRdmaModule(Kernel kernel, long iommuMapPs) {
        this.kernel = kernel;
        this.iommuMapPs = iommuMapPs;
    }

    /** Registers {@code process} with the module: an empty status and a notifier over its whole address space. */
    void attach(AddressSpace process) {
        if (processes.containsKey(process)) {
            return;
        }
        Status s = new Status();
        processes.put(process, s);
        process.subscribe(0, PageTable.USER_TOP, (sub, start, end, reason, seq) -> invalidate(s, start, end));
    }

    /** A set the caller keeps of which pages of {@code process} it has seen present, cleared by the notifier. */
    LongHashSet view(AddressSpace process) {
        LongHashSet v = new LongHashSet();
        status(process).views.add(v);
        return v;
    }

    private static void invalidate(Status s, long start, long end) {
        clear(s.present, start, end);
        for (LongHashSet v : s.views) {
            clear(v, start, end);
        }
    }

    private static void clear(LongHashSet set, long start, long end) {
        long first = start / Kernel.PAGE_SIZE;
        long last = Math.ceilDiv(end, Kernel.PAGE_SIZE);
        if (last - first > set.size()) {
            // a large range (an munmap of a whole area): walk the set rather than the range
            set.removeIf(p -> p >= first && p < last);
        } else {
            for (long p = first; p < last; p++) {
                set.remove(p);
            }
        }
    }

    private Status status(AddressSpace process) {
        Status s = processes.get(process);
        if (s == null) {
            throw new IllegalStateException("process " + process.id() + " is not registered with NP-RDMA's module");
        }
        return s;
    }

    /** Whether every page of {@code [va, va + length)} is in {@code set}. */
    static boolean covers(LongHashSet set, long va, long length) {
        long last = Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE);
        for (long p = va / Kernel.PAGE_SIZE; p < last; p++) {
            if (!set.contains(p)) {
                return false;
            }
        }
        return true;
    }

    /** Adds every page of {@code [va, va + length)} to {@code set}. */
    static void add(LongHashSet set, long va, long length) {
        long last = Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE);
        for (long p = va / Kernel.PAGE_SIZE; p < last; p++) {
            set.add(p);
        }
    }

    /** Whether the module has every page of the range present to the NIC. */
    boolean present(AddressSpace process, long va, long length) {
        return covers(status(process).present, va, length);
    }

    /**
     * The software fault path: makes every missing page of {@code [va, va + length)} present,
     * faulting it in (minor or major, as the kernel finds it; nothing pinned) and mapping it in the
     * IOMMU. Pages already present cost nothing.
     *
     * @return the kernel time spent, picoseconds
     * @throws IllegalStateException if a page cannot be faulted in (no mapping, no permission)
     */
    long resolve(AddressSpace process, long va, long length) {
        Status s = status(process);
        long cost = 0;
        long last = Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE);
        for (long p = va / Kernel.PAGE_SIZE; p < last; p++) {
            if (s.present.contains(p)) {
                continue;
            }
            Fault f = kernel.touch(process, p * Kernel.PAGE_SIZE, true);
            if (!f.resolved()) {
                throw new IllegalStateException("NP-RDMA's module cannot fault in 0x" + Long.toHexString(p * Kernel.PAGE_SIZE)
                        + " of process " + process.id() + ": " + f.kind());
            }
            if (f.kind() == FaultKind.MAJOR) {
                majorFaults++;
            } else if (f.kind() != FaultKind.NONE) {
                minorFaults++;
            }
            cost += f.costPs() + iommuMapPs;
            pagesMapped++;
            s.present.add(p);
        }
        return cost;
    }

    long minorFaults() {
        return minorFaults;
    }

    long majorFaults() {
        return majorFaults;
    }

    long pagesMapped() {
        return pagesMapped;
    }
}
