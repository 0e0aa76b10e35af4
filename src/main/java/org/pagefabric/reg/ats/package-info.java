/**
 * PCIe ATS/PRI with PASID as a registration policy ({@code ats-pri}): each process's address
 * space is bound to the IOMMU under its own PASID (shared virtual addressing), the NIC caches
 * translations in its Address Translation Cache, pages that are not present are asked for with
 * Page Requests that the OS's I/O page-fault handler resolves ({@link org.pagefabric.reg.ats.PriHandler}),
 * and the MMU notifier invalidates the IOMMU and the device before a mapping changes.
 */
package org.pagefabric.reg.ats;
