/**
 * Active Access's extensions of the IOMMU (seed 002 §3): the IUID field and the WL/WLD/RL/RLD/E
 * bits of the entries ({@link org.pagefabric.hw.os.Pte}) steer device accesses into per-process
 * access logs ({@link org.pagefabric.hw.iommu.aa.AccessLog}) found through the access log table
 * ({@link org.pagefabric.hw.iommu.aa.AccessLogTable}); the packet tag buffer
 * ({@link org.pagefabric.hw.iommu.aa.TagBuffer}) reassembles interleaved multi-packet accesses
 * and matches read replies to their requests; the flushing buffer
 * ({@link org.pagefabric.hw.iommu.aa.FlushingBuffer}) turns gets of a flushing page into active
 * flushes. {@link org.pagefabric.hw.iommu.aa.ActiveAccessUnit} puts them together behind the
 * IOMMU's {@link org.pagefabric.hw.iommu.AccessInterceptor} seam.
 */
package org.pagefabric.hw.iommu.aa;
