/**
 * An RDMA NIC as verbs present it: protection domains, memory regions and windows with their keys
 * ({@link KeyTable}) and per-page translation tables ({@link TranslationTable},
 * {@link TranslationCache}), queue pairs, work requests and completion queues, and the requester,
 * responder and DMA engine that move bytes between the transport and host memory ({@link Nic}).
 * It also holds the NIC's side of every translation scheme the policies use: page faults of
 * on-demand regions ({@link PageFaultUnit}, {@link PageFaultHandler}), DMA through the IOMMU
 * ({@link IommuDmaPath}, {@link TranslationStage}, PART's {@link NiFaultFifo}) and PCIe ATS
 * ({@link AddressTranslationCache}). {@link DatagramRmaUnit} is the NICs' side of remote memory
 * operations emulated over datagrams: their {@link AtomicUnit}, DMA reads and writes.
 *
 * <p>Layer: Hardware. It may use {@code sim} and {@code config} and other hardware packages
 * without forming a cycle; it uses {@code sim}, {@code hw.net}, {@code hw.iommu}, {@code hw.os}
 * and {@code hw.mem}. Registration policies drive it; it names none of them.
 */
package org.pagefabric.hw.nic;
