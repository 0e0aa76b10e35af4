package org.pagefabric.hw.os;

/**
 * What fork does to a page pinned by get_user_pages (an RDMA registration) in a private
 * writable mapping: the kernel behaviour a profile names with {@code os.fork.pinned_pages}.
 */
public enum ForkPinnedPages {
    /**
     * Linux 5.9 and later (commit 70e806e4e645 "mm: Do early cow for pinned pages during fork()
     * for ptes", page_needs_cow_for_dma): the child gets its own copy of the page at fork and the
     * parent keeps the pinned page writable, so the device and the parent go on sharing it.
     * From 5.13 the kernel reports this over RDMA netlink (RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK),
     * and libibverbs' ibv_is_fork_initialized answers IBV_FORK_UNNEEDED.
     */
    EARLY_COPY,
    /**
     * Older kernels: the pinned page is shared copy-on-write like any other; the first of the
     * two processes to write it while the other still maps it gets a new page. When that is the
     * parent, its registration goes on naming the old page, which the child now owns: the NIC
     * reads and writes memory the parent no longer sees (the hazard ibv_fork_init and
     * MADV_DONTFORK exist for).
     */
    SHARED_COW
}
