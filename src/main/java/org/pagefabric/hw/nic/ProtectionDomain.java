package org.pagefabric.hw.nic;

/**
 * A protection domain: memory regions and queue pairs in different domains cannot use each
 * other's keys. Its id is also the IOMMU context (PDID) on fabrics that translate through an
 * IOMMU.
 *
 * @param id   the domain id, unique on its NIC
 * @param name a label for reports, e.g. the owning process
 */
public record ProtectionDomain(int id, String name) {
}
