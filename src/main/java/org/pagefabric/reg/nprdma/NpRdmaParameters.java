package org.pagefabric.reg.nprdma;

import org.pagefabric.config.Parameter;

/** NP-RDMA's library and kernel module: what a verb's check and a software fault cost. */
public final class NpRdmaParameters {
    /** The library's own work per verb it intercepts. */
    public static final Parameter WRAP = Parameter.time("nprdma.wrap",
            "The NP-RDMA library's own work per verb it intercepts (LD_PRELOAD) before handing it to libibverbs:"
                    + " finding the verb's registered region and reading the status of its pages.")
            .withDefault("100 ns", "assumed: the lower end of the 0.1-2 us the NP-RDMA abstract gives as its"
                    + " overhead without page faults (arXiv 2310.11062); the paper's breakdown could not be read");
    /** Testing one page's bit in the status bitmap. */
    public static final Parameter CHECK_PER_PAGE = Parameter.time("nprdma.check.per_page",
            "Testing one page's bit in the status bitmap the kernel module keeps and the library reads, per page of"
                    + " the verb's buffer.")
            .withDefault("2 ns", "assumed: one load of a cached word, as cache.kdreg2.check");
    /** The module mapping one page in the IOMMU. */
    public static final Parameter IOMMU_MAP = Parameter.time("nprdma.iommu_map.per_page",
            "The kernel module mapping one faulted-in page's I/O virtual address to its frame in the IOMMU"
                    + " (iommu_map) and marking it present in the status bitmap.")
            .withDefault("300 ns", "assumed: a page-table update of the IOMMU's second-level table and its"
                    + " bookkeeping; no source read states it");

    private NpRdmaParameters() {
    }
}
