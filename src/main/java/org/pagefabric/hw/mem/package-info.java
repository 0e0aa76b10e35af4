/**
 * A node's physical memory: 4 KiB frames ({@link PhysicalMemory}), their metadata
 * ({@link FrameTable}), a frame allocator, and their content kept sparse ({@link PageBacking}),
 * either as real bytes or as content tags ({@link ContentTag}, {@link TagSegments}) so that bulk
 * data no application reads costs no real memory; {@link ContentDigest} compares a transfer's
 * destination with its source.
 *
 * <p>Layer: Hardware. It uses nothing of PageFabric, so the kernel, the NIC and the IOMMU can all
 * build on it.
 */
package org.pagefabric.hw.mem;
