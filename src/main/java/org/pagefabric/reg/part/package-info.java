/**
 * PART (seed 000): RDMA without pinning on a NIC that reaches memory through the IOMMU.
 *
 * <p>{@link org.pagefabric.reg.part.PartFamilyPolicy} registers each rank's segment as one
 * IOMMU-translated region and installs {@link org.pagefabric.reg.part.PartDriver} on every node:
 * SMMU fault interrupt, the tasklet that reads the NI FIFO and pages in with get_user_pages and
 * put_page ({@link org.pagefabric.reg.part.PageIn}: PIO, PI4, PIA), and the user-space helper
 * that sends Explicit Retransmission Requests. {@link org.pagefabric.reg.part.PartPolicy} is PART
 * itself (with ERR, or with the source's time-out); {@link org.pagefabric.reg.part.TableOneMethod}
 * the methods of 000 Table I that prepare the destination before a transfer.
 */
package org.pagefabric.reg.part;
