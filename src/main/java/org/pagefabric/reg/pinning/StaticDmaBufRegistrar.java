package org.pagefabric.reg.pinning;

import java.util.IdentityHashMap;
import java.util.Map;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.DomainGrowth;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.DmaBufAttachment;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.DmaBufRegistrar;

/**
 * dma-buf registration for a NIC without on-demand paging: a static attachment that pins the
 * buffer and maps it once (ib_umem_dmabuf_get_pinned in drivers/infiniband/core/umem_dmabuf.c:
 * dma_buf_pin, then dma_buf_map_attachment), so the region's translations never change and the
 * exporter refuses every move until the region is deregistered. It costs what pinning
 * registration does without get_user_pages: {@code nic.register.base} plus
 * {@code nic.register.per_page} per page, plus {@code nic.register.device_growth} per GiB of
 * device memory the protection domain already holds ({@link DomainGrowth}).
 */
public final class StaticDmaBufRegistrar implements DmaBufRegistrar {
    private final long registerBasePs;
    private final long registerPerPagePs;
    private final long growthPsPerGiB;
    private final Map<MemoryRegion, Held> held = new IdentityHashMap<>();
    private final Map<ProtectionDomain, DomainGrowth> domains = new IdentityHashMap<>();

    /**
     * A registrar charging {@code registerBasePs} plus {@code registerPerPagePs} per page, plus
     * {@code growthPsPerGiB} per GiB of device memory the domain already holds.
     */
    public StaticDmaBufRegistrar(long registerBasePs, long registerPerPagePs, long growthPsPerGiB) {
        this.registerBasePs = registerBasePs;
        this.registerPerPagePs = registerPerPagePs;
        this.growthPsPerGiB = growthPsPerGiB;
    }

    @Override
    public Registration register(Endpoint rank, DmaBuf buf, long offset, long length, long iova, int access) {
        DmaBufRegistrar.checkRegion(buf, offset, length, iova);
        DmaBufAttachment a = buf.attach(null);
        a.pin();
        int pages = (int) (length / Kernel.PAGE_SIZE);
        long[] frames = a.map(offset / Kernel.PAGE_SIZE, pages);
        MemoryRegion mr = rank.node().nic().registerPinned(rank.pd(), iova, length, access, frames);
        DomainGrowth domain = domains.computeIfAbsent(rank.pd(), pd -> new DomainGrowth(growthPsPerGiB));
        long growth = domain.register(length);
        held.put(mr, new Held(rank.node().nic(), a, domain, length));
        return new Registration(mr, registerBasePs + pages * registerPerPagePs + growth);
    }

    @Override
    public void deregister(MemoryRegion region) {
        Held h = held.remove(region);
        if (h == null) {
            throw new IllegalArgumentException(region + " is not a static dma-buf registration");
        }
        h.nic.deregister(region);
        h.attachment.detach();
        h.domain.deregister(h.length);
    }

    /** The NIC a region lives on, the pinned attachment behind it and the domain holding its bytes. */
    private record Held(Nic nic, DmaBufAttachment attachment, DomainGrowth domain, long length) {
    }
}
