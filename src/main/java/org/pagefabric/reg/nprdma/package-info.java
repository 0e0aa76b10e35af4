/**
 * NP-RDMA (Shen et al., "NP-RDMA: Using Commodity RDMA without Pinning Memory", arXiv 2310.11062):
 * registration without pinning on a NIC that cannot take a page fault. A kernel module keeps
 * each registered process's pages mapped in the IOMMU, follows the kernel's changes with an MMU
 * notifier, and resolves in software, before a verb is posted, any page the NIC would find
 * missing.
 */
package org.pagefabric.reg.nprdma;
