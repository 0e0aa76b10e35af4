package org.pagefabric.hw.node;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.cpu.CpuCosts;
import org.pagefabric.hw.iommu.IommuConfig;
import org.pagefabric.hw.iommu.IommuCosts;
import org.pagefabric.hw.nic.NicCosts;
import org.pagefabric.hw.nic.TranslationCacheConfig;
import org.pagefabric.hw.os.KernelConfig;
import org.pagefabric.hw.os.OsCosts;
import org.pagefabric.hw.pcie.PcieCosts;

/**
 * What every node of a cluster is built from, read from the profile once: a cluster of
 * thousands of nodes shares these records instead of re-reading the profile per node.
 *
 * @param cores         cores per node
 * @param cpu           CPU overheads
 * @param memoryBytes   RAM per node
 * @param swapSlots     swap pages per node (0: no swap)
 * @param os            kernel costs
 * @param kernel        kernel policy and layout
 * @param pcie          the NIC's bus
 * @param nic           the NIC's processing costs
 * @param translationCache the NIC's translation cache
 * @param keyTagBits    bits of the NIC's memory keys that are a random tag ({@code nic.key_tag_bits})
 * @param iommuConfig   the IOMMU's structure, or {@code null} when the NIC uses none
 * @param iommuCosts    the IOMMU's costs, or {@code null} when the NIC uses none
 * @param niFifoEntries entries of the NI FIFO logging IOMMU-refused accesses (0 when the NIC uses no IOMMU)
 * @param vm            the virtual machine every node runs as, or {@code null} on bare metal
 */
record NodeSpec(int cores, CpuCosts cpu, long memoryBytes, long swapSlots, OsCosts os, KernelConfig kernel,
        PcieCosts pcie, NicCosts nic, TranslationCacheConfig translationCache, int keyTagBits, IommuConfig iommuConfig,
        IommuCosts iommuCosts, int niFifoEntries, VmSpec vm) {

    static NodeSpec of(Profile p) {
        boolean iommu = CostsFromProfile.nicUsesIommu(p);
        return new NodeSpec(CostsFromProfile.cores(p), CostsFromProfile.cpu(p), CostsFromProfile.memoryBytes(p),
                CostsFromProfile.swapSlots(p), CostsFromProfile.os(p), CostsFromProfile.kernelConfig(p),
                CostsFromProfile.pcie(p), CostsFromProfile.nic(p), CostsFromProfile.nicTranslationCache(p),
                CostsFromProfile.nicKeyTagBits(p),
                iommu ? CostsFromProfile.iommuConfig(p) : null, iommu ? CostsFromProfile.iommu(p) : null,
                iommu ? ProfileValues.intCount(p, org.pagefabric.hw.param.PartParameters.NACK_FIFO_ENTRIES) : 0,
                VmSpec.of(p));
    }
}
