package org.pagefabric.hw.nic;

import org.pagefabric.hw.mem.PhysicalMemory;

/**
 * A registered memory region: a virtual range of one process, the keys that name it locally
 * (lkey) and remotely (rkey), what they allow, and the NIC's translation of its pages.
 *
 * <p>Explicit regions cover {@code [address, address + length)}. An implicit on-demand region
 * (001, "Implicit ODP") covers the whole user address space; its translation table still only
 * holds what has been faulted in.
 */
public final class MemoryRegion {

    private final int index;
    private final ProtectionDomain pd;
    private final long address;
    private final long length;
    private final int access;
    private final int lkey;
    private final int rkey;
    private final boolean implicit;
    private final TranslationTable table;
    private boolean valid = true;
    /** log2 of the 4 KiB pages one translation entry of this region covers: 0, or 9 for 2 MiB entries. */
    private int entryShift;

    MemoryRegion(int index, ProtectionDomain pd, long address, long length, int access, int lkey, int rkey,
                 boolean implicit) {
        this.index = index;
        this.pd = pd;
        this.address = address;
        this.length = length;
        this.access = access;
        this.lkey = lkey;
        this.rkey = rkey;
        this.implicit = implicit;
        // The IOMMU walks the process page table: the NIC keeps no entries of its own for such a region.
        this.table = implicit ? new TranslationTable()
                : new TranslationTable((access & AccessFlags.IOMMU) != 0 ? 1 : pageCount());
    }

    /**
     * log2 of the 4 KiB pages one of this region's translation entries covers: 0 (an entry per
     * page) or 9 (an entry per 2 MiB block, when huge pages back the whole region).
     */
    public int entryShift() {
        return entryShift;
    }

    void setEntryShift(int shift) {
        this.entryShift = shift;
    }

    /** Index in the NIC's key table. */
    public int index() {
        return index;
    }

    /** The protection domain. */
    public ProtectionDomain pd() {
        return pd;
    }

    /** First virtual address. */
    public long address() {
        return address;
    }

    /** Length in bytes. */
    public long length() {
        return length;
    }

    /** Access flags ({@link AccessFlags}). */
    public int access() {
        return access;
    }

    /** The local key. */
    public int lkey() {
        return lkey;
    }

    /** The remote key. */
    public int rkey() {
        return rkey;
    }

    /** Whether pages are mapped on demand rather than pinned at registration. */
    public boolean onDemand() {
        return (access & AccessFlags.ON_DEMAND) != 0;
    }

    /** Whether the node's IOMMU translates this region's addresses ({@link AccessFlags#IOMMU}). */
    public boolean iommuTranslated() {
        return (access & AccessFlags.IOMMU) != 0;
    }

    /** Whether this is an implicit on-demand region over the whole address space. */
    public boolean implicit() {
        return implicit;
    }

    /** The NIC's translation of this region's pages, indexed from {@link #firstPage()}. */
    public TranslationTable table() {
        return table;
    }

    /** Virtual page number of the region's first page. */
    public long firstPage() {
        return address >>> PhysicalMemory.PAGE_SHIFT;
    }

    /** Number of pages the region spans. */
    public long pageCount() {
        return length == 0 ? 0 : ((address + length - 1) >>> PhysicalMemory.PAGE_SHIFT) - firstPage() + 1;
    }

    /** Whether {@code [va, va + len)} lies inside the region (without overflow). */
    public boolean contains(long va, long len) {
        return len >= 0 && va >= address && va - address <= length && len <= length - (va - address);
    }

    /** Whether the region is still registered. */
    public boolean valid() {
        return valid;
    }

    void invalidate() {
        valid = false;
    }

    @Override
    public String toString() {
        return String.format("MR[%d] va=0x%x len=%d lkey=0x%x rkey=0x%x %s", index, address, length, lkey, rkey,
                AccessFlags.describe(access));
    }
}
