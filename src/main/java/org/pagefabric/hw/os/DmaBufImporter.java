package org.pagefabric.hw.os;

/**
 * The importer side of a dynamic dma-buf attachment: the callback the exporter calls before it
 * moves the buffer (dma_buf_attach_ops.move_notify, drivers/dma-buf/dma-buf.c). It runs with the
 * buffer's reservation lock held; when it returns, the importer no longer uses the mapping it
 * had (an RDMA importer has zapped the NIC's translations of the whole region, as mlx5's
 * mlx5_ib_dmabuf_invalidate_cb does) and re-maps only on its next access.
 */
@FunctionalInterface
public interface DmaBufImporter {
    /**
     * The exporter is about to move {@code attachment}'s buffer.
     *
     * @return the importer's time in the callback, picoseconds (charged to the exporter's move)
     */
    long moveNotify(DmaBufAttachment attachment);
}
