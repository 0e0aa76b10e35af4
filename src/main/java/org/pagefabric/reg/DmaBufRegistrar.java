package org.pagefabric.reg;

import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.Kernel;

/**
 * Registration of device memory shared as a dma-buf, as rdma-core's
 * {@code ibv_reg_dmabuf_mr(pd, offset, length, iova, fd, access)} does (libibverbs/verbs.c; man
 * page ibv_reg_mr.3): the region covers {@code length} bytes from {@code offset} of the buffer
 * and the NIC addresses them at {@code iova}, which no CPU mapping backs. Its translations come
 * from the dma-buf attachment, never from the process page table. A policy whose descriptor
 * offers {@link Capability#DMA_BUF} returns one from {@link RegistrationPolicy#dmaBuf}.
 */
public interface DmaBufRegistrar {
    /**
     * Registers {@code [offset, offset + length)} of {@code buf} for {@code rank}'s protection
     * domain at {@code iova}; {@code offset}, {@code iova} and {@code length} are page aligned.
     *
     * @param access {@link org.pagefabric.hw.nic.AccessFlags} of the region
     * @return the region (its keys are the application's to use) and the registration's time
     */
    Registration register(Endpoint rank, DmaBuf buf, long offset, long length, long iova, int access);

    /**
     * Checks a region's bounds as {@link #register} takes them.
     *
     * @throws IllegalArgumentException unless {@code offset}, {@code iova} and {@code length} are
     *         page aligned, {@code length} positive and the region inside {@code buf}
     */
    static void checkRegion(DmaBuf buf, long offset, long length, long iova) {
        if (((offset | iova | length) & (Kernel.PAGE_SIZE - 1)) != 0 || length <= 0 || offset < 0
                || offset + length > buf.size()) {
            throw new IllegalArgumentException("dma-buf region [" + offset + ", +" + length + ") at iova 0x"
                    + Long.toHexString(iova) + ": page aligned and inside the " + buf.size() + " B buffer");
        }
    }

    /** Deregisters a region {@link #register} returned: its keys stop working and it detaches from the buffer. */
    void deregister(MemoryRegion region);

    /**
     * A registered dma-buf region.
     *
     * @param region the NIC's region: {@code lkey} and {@code rkey} name it
     * @param costPs the time registering took, picoseconds
     */
    record Registration(MemoryRegion region, long costPs) {
    }
}
