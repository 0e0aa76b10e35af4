package org.pagefabric.calibrate;

/**
 * madvise(MADV_DONTNEED) on present 4 KiB pages: the base cost of the call and the cost per page
 * dropped (page-table entries cleared, pages freed, TLB flushed).
 */
final class MadviseProbe extends SizedProbe {
    static final String NAME = "madvise";
    static final String BASE = "madvise(DONTNEED): base";
    static final String PER_PAGE = "madvise(DONTNEED): per present page";

    MadviseProbe(int pages) {
        super(NAME, "madvise(MADV_DONTNEED) base and per-page costs", pages);
    }

    @Override
    public void run(ProbeContext ctx) {
        PerPageFit.sample(ctx, pages, n -> dontneed(ctx, n)).add(ctx, NAME, BASE, PER_PAGE);
    }

    private static double dontneed(ProbeContext ctx, int pages) {
        Libc libc = ctx.libc();
        long len = pages * Libc.PAGE;
        long addr = ctx.mappings().map(len);
        try {
            libc.madvise(addr, len, Libc.MADV_NOHUGEPAGE);
            Libc.memset(addr, 1, len);
            long t0 = System.nanoTime();
            int rc = libc.madvise(addr, len, Libc.MADV_DONTNEED);
            long t1 = System.nanoTime();
            if (rc != 0) {
                throw new ProbeSkipped("madvise(MADV_DONTNEED) failed: " + Errno.name(libc.errno()));
            }
            return t1 - t0;
        } finally {
            ctx.mappings().unmap(addr, false);
        }
    }
}
