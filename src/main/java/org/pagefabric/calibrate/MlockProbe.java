package org.pagefabric.calibrate;

/**
 * mlock and munlock of 4 KiB pages, on fresh memory (never touched: mlock populates it) and on
 * resident memory, split into a base cost and a cost per page, and their sum in the format of
 * seed 003's Table 1 (base us, ns/page, GB/s). The largest size stays within RLIMIT_MEMLOCK,
 * so the probe also runs for a user without CAP_IPC_LOCK.
 */
final class MlockProbe implements Probe {
    static final String NAME = "mlock";
    static final String FRESH_BASE = "mlock, fresh pages: base";
    static final String FRESH_PER_PAGE = "mlock, fresh pages: per page";
    static final String RESIDENT_BASE = "mlock, resident pages: base";
    static final String RESIDENT_PER_PAGE = "mlock, resident pages: per page";
    static final String MUNLOCK_BASE = "munlock: base";
    static final String MUNLOCK_PER_PAGE = "munlock: per page";
    static final String PAIR_FRESH = "mlock+munlock, fresh pages: ";
    static final String PAIR_RESIDENT = "mlock+munlock, resident pages: ";

    /** Largest size measured: 4 MiB, half the common 8 MiB RLIMIT_MEMLOCK default. */
    static final int MAX_PAGES = 1024;
    /** Below this the two sizes are too close to separate base and per-page costs. */
    static final int MIN_PAGES = 16;
    private static final int SMALL_TRIALS = 5;

    private final int maxPages;

    MlockProbe(int maxPages) {
        this.maxPages = maxPages;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String measures() {
        return "mlock/munlock base and per-page costs on fresh and resident memory";
    }

    /** Pages of the large size: at most {@code maxPages}, within the soft RLIMIT_MEMLOCK. */
    static int pages(long memlockSoft, int maxPages) {
        if (memlockSoft < 0 || memlockSoft == Long.MAX_VALUE) {
            return maxPages;
        }
        return (int) Math.min(maxPages, memlockSoft / Libc.PAGE);
    }

    @Override
    public void run(ProbeContext ctx) {
        int n = pages(ctx.host().memlockSoft(), maxPages);
        if (n < MIN_PAGES) {
            throw new ProbeSkipped("RLIMIT_MEMLOCK is " + ctx.host().memlockText() + ", fewer than " + MIN_PAGES
                    + " pages; raise it (ulimit -l) to measure mlock");
        }
        ctx.note("mlock: sizes 1 and " + n + " pages (" + n * Libc.PAGE / 1024 + " KiB), within RLIMIT_MEMLOCK "
                + ctx.host().memlockText() + "; transparent huge pages off on the probe's memory");
        int reps = ctx.repetitions();
        double[][] lock1 = new double[2][reps];
        double[][] lockN = new double[2][reps];
        double[][] unlock1 = new double[2][reps];
        double[][] unlockN = new double[2][reps];
        double[] trialLock = new double[SMALL_TRIALS];
        double[] trialUnlock = new double[SMALL_TRIALS];
        double[] once = new double[2];
        for (int rep = -ctx.warmup(); rep < reps; rep++) {
            ctx.mappings().checkRunning();
            for (int state = 0; state < 2; state++) {
                boolean resident = state == 1;
                for (int t = 0; t < SMALL_TRIALS; t++) {
                    lockOnce(ctx, 1, resident, once);
                    trialLock[t] = once[0];
                    trialUnlock[t] = once[1];
                }
                lockOnce(ctx, n, resident, once);
                if (rep >= 0) {
                    lock1[state][rep] = PerPageFit.median(trialLock);
                    unlock1[state][rep] = PerPageFit.median(trialUnlock);
                    lockN[state][rep] = once[0];
                    unlockN[state][rep] = once[1];
                }
            }
        }
        ctx.add(NAME, FRESH_BASE, "us", us(PerPageFit.base(lock1[0], lockN[0], n)));
        ctx.add(NAME, FRESH_PER_PAGE, "ns", PerPageFit.perPage(lock1[0], lockN[0], n));
        ctx.add(NAME, RESIDENT_BASE, "us", us(PerPageFit.base(lock1[1], lockN[1], n)));
        ctx.add(NAME, RESIDENT_PER_PAGE, "ns", PerPageFit.perPage(lock1[1], lockN[1], n));
        ctx.add(NAME, MUNLOCK_BASE, "us", us(PerPageFit.base(unlock1[1], unlockN[1], n)));
        ctx.add(NAME, MUNLOCK_PER_PAGE, "ns", PerPageFit.perPage(unlock1[1], unlockN[1], n));
        addPair(ctx, PAIR_FRESH, lock1[0], unlock1[0], lockN[0], unlockN[0], n);
        addPair(ctx, PAIR_RESIDENT, lock1[1], unlock1[1], lockN[1], unlockN[1], n);
    }

    private static void addPair(ProbeContext ctx, String prefix, double[] l1, double[] u1, double[] lN, double[] uN,
            int n) {
        double[] one = sum(l1, u1);
        double[] many = sum(lN, uN);
        double[] per = PerPageFit.perPage(one, many, n);
        ctx.add(NAME, prefix + "base", "us", us(PerPageFit.base(one, many, n)));
        ctx.add(NAME, prefix + "per page", "ns", per);
        ctx.add(NAME, prefix + "throughput", "GB/s", PerPageFit.gigabytesPerSecond(per));
    }

    /** One mmap, optional touch, timed mlock and munlock, munmap; {@code out} gets the two times in ns. */
    private static void lockOnce(ProbeContext ctx, int pages, boolean resident, double[] out) {
        Libc libc = ctx.libc();
        long len = pages * Libc.PAGE;
        long addr = ctx.mappings().map(len);
        try {
            libc.madvise(addr, len, Libc.MADV_NOHUGEPAGE);
            if (resident) {
                Libc.memset(addr, 1, len);
            }
            long t0 = System.nanoTime();
            int rc = libc.mlock(addr, len);
            long t1 = System.nanoTime();
            if (rc != 0) {
                throw new ProbeSkipped("mlock of " + pages + " pages failed: " + Errno.name(libc.errno())
                        + " (RLIMIT_MEMLOCK " + ctx.host().memlockText() + ")");
            }
            libc.munlock(addr, len);
            long t2 = System.nanoTime();
            out[0] = t1 - t0;
            out[1] = t2 - t1;
        } finally {
            ctx.mappings().unmap(addr, true);
        }
    }

    private static double[] sum(double[] a, double[] b) {
        double[] out = new double[a.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = a[i] + b[i];
        }
        return out;
    }

    static double[] us(double[] ns) {
        double[] out = new double[ns.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = ns[i] / 1000.0;
        }
        return out;
    }
}
