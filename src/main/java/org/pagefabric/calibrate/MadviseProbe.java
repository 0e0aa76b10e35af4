package org.pagefabric.calibrate;

/**
 * madvise(MADV_DONTNEED) on present 4 KiB pages: the base cost of the call and the cost per page
 * dropped (page-table entries cleared, pages freed, TLB flushed).
 */
final class MadviseProbe implements Probe {
    static final String NAME = "madvise";
    static final String BASE = "madvise(DONTNEED): base";
    static final String PER_PAGE = "madvise(DONTNEED): per present page";
    private static final int SMALL_TRIALS = 5;

    private final int pages;

    MadviseProbe(int pages) {
        this.pages = pages;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String measures() {
        return "madvise(MADV_DONTNEED) base and per-page costs";
    }

    @Override
    public void run(ProbeContext ctx) {
        int reps = ctx.repetitions();
        double[] one = new double[reps];
        double[] many = new double[reps];
        double[] trials = new double[SMALL_TRIALS];
        for (int rep = -ctx.warmup(); rep < reps; rep++) {
            ctx.mappings().checkRunning();
            for (int t = 0; t < SMALL_TRIALS; t++) {
                trials[t] = dontneed(ctx, 1);
            }
            double m = dontneed(ctx, pages);
            if (rep >= 0) {
                one[rep] = PerPageFit.median(trials);
                many[rep] = m;
            }
        }
        ctx.add(NAME, BASE, "us", MlockProbe.us(PerPageFit.base(one, many, pages)));
        ctx.add(NAME, PER_PAGE, "ns", PerPageFit.perPage(one, many, pages));
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
