package org.pagefabric.hw.node;

import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.iommu.ProcessPageTable;
import org.pagefabric.hw.nic.IommuDmaPath;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.PageTable;

/**
 * Binds a process's own page table to an IOMMU context (shared virtual addressing, as PART's
 * SMMU does, 000 §III-B): the device walks the same page table the CPU uses, so there is no
 * second translation to keep in sync, and a page the kernel unmaps or moves is seen by the
 * device at its next walk: binding subscribes an MMU interval notifier over the whole user
 * address space that invalidates the context's IOTLB entries of every range the kernel
 * unmaps, moves, swaps out or write-protects (as Linux's SVA binding does), so the device never
 * uses a stale translation.
 */
public final class SharedVirtualAddressing implements ProcessPageTable {
    private final AddressSpace process;

    private SharedVirtualAddressing(AddressSpace process) {
        this.process = process;
    }

    /** Makes {@code process}'s page table the IOMMU's context {@code pdid}, kept coherent by an MMU notifier. */
    public static SharedVirtualAddressing bind(Iommu iommu, int pdid, AddressSpace process) {
        SharedVirtualAddressing table = new SharedVirtualAddressing(process);
        iommu.bind(pdid, table);
        process.subscribe(0, PageTable.USER_TOP,
                (sub, start, end, reason, seq) -> iommu.invalidateRange(pdid, start, end - start));
        return table;
    }

    /**
     * As {@link #bind(Iommu, int, AddressSpace)}, for a device that caches translations through
     * ATS: the notifier also sends the device an Invalidate Request for the range after the
     * IOMMU's own invalidation, and the mapping change waits for its completion (Linux's SVA
     * notifier flushes the IOTLB and the device TLB, drivers/iommu/iommu-sva.c, and the IOMMU
     * driver waits for the device's Invalidation Completion).
     *
     * @param pasid the PASID the device tags its requests with: the domain bound here
     */
    public static SharedVirtualAddressing bindWithDeviceTlb(Iommu iommu, int pasid, AddressSpace process,
                                                            IommuDmaPath device) {
        SharedVirtualAddressing table = new SharedVirtualAddressing(process);
        iommu.bind(pasid, table);
        process.subscribe(0, PageTable.USER_TOP, (sub, start, end, reason, seq) -> {
            iommu.invalidateRange(pasid, start, end - start);
            process.kernel().chargeNotifierWait(device.invalidateDevice(pasid, start, end - start));
        });
        return table;
    }

    /** The bound process. */
    public AddressSpace process() {
        return process;
    }

    @Override
    public long leafEntry(long va) {
        return process.translate(va);
    }

    @Override
    public int levelsWalked(long va) {
        return process.pageTable().walkDepth(va);
    }
}
