/**
 * The PCIe link between a device and the host's root complex: one serializer per direction
 * ({@link PcieLink}) and how a DMA transfer splits into transaction layer packets ({@link Tlp}),
 * with costs from the profile ({@link PcieCosts}).
 *
 * <p>Layer: Hardware. It may use {@code sim} and {@code config} and other hardware packages
 * without forming a cycle; it uses only {@code sim}.
 */
package org.pagefabric.hw.pcie;
