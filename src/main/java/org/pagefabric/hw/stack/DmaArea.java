package org.pagefabric.hw.stack;

import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Prot;

/**
 * Kernel buffers the NIC reaches by DMA: {@code slots} buffers of {@link HostStack#SLOT} bytes,
 * populated, pinned once and mapped for the device for the stack's lifetime (as a driver's
 * rings and skb data are with {@code dma_map_single}). Without an IOMMU the NIC holds their
 * frames in its translation table; with one ({@code nic.iommu}) every access is translated by
 * the IOMMU through the stack's page table.
 */
final class DmaArea {
    final long va;
    final int slots;
    final MemoryRegion region;

    DmaArea(Kernel kernel, AddressSpace space, Nic nic, ProtectionDomain pd, int slots, boolean iommu) {
        this.slots = slots;
        long bytes = (long) slots * HostStack.SLOT;
        long pages = (bytes + Kernel.PAGE_SIZE - 1) / Kernel.PAGE_SIZE;
        this.va = kernel.mmap(space, 0, pages * Kernel.PAGE_SIZE, Prot.READ_WRITE, MapFlags.POPULATE).address();
        PinResult pin = kernel.getUserPages(space, va, (int) pages, true);
        if (!pin.complete()) {
            throw new IllegalStateException("pinning " + pages + " pages of host stack buffers failed: " + pin.error());
        }
        int access = AccessFlags.LOCAL_WRITE;
        this.region = iommu ? nic.registerVirtual(pd, va, pages * Kernel.PAGE_SIZE, access)
                : nic.registerPinned(pd, va, pages * Kernel.PAGE_SIZE, access, pin.frames());
    }

    /** Address of buffer {@code slot}. */
    long address(int slot) {
        return va + (long) slot * HostStack.SLOT;
    }
}
