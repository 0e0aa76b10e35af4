/**
 * An IOMMU between a device and host memory, translating (domain, virtual address) over the
 * process page tables (shared virtual addressing): {@link Iommu} with a {@link ContextBank} per
 * protection domain, a multi-level {@link Iotlb} ({@link IotlbLevel}, {@link RecencyList},
 * {@link SlotHash}), a {@link PageTableWalker} over a {@link ProcessPageTable}, a {@link FaultLog}
 * and a {@link PageRequestQueue} (PCIe PRI). {@link AccessInterceptor} is the seam on which
 * {@code hw.iommu.aa} builds Active Access.
 *
 * <p>Layer: Hardware. It may use {@code sim} and {@code config} and other hardware packages
 * without forming a cycle; it uses {@code sim}, {@code hw.os} (the page-table entry word, and a
 * virtual machine's second stage) and {@code hw.cpu} (the interrupt controller).
 */
package org.pagefabric.hw.iommu;
