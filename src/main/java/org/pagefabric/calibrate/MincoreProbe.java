package org.pagefabric.calibrate;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * mincore over resident 4 KiB pages: base cost and cost per page reported. It also checks that
 * mincore says what the probe knows: every touched page resident, every dropped page not.
 */
final class MincoreProbe extends SizedProbe {
    static final String NAME = "mincore";
    static final String BASE = "mincore: base";
    static final String PER_PAGE = "mincore: per page";

    MincoreProbe(int pages) {
        super(NAME, "mincore base and per-page costs", pages);
    }

    @Override
    public void run(ProbeContext ctx) {
        Libc libc = ctx.libc();
        long len = pages * Libc.PAGE;
        PerPageFit.Sample sample;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment vec = arena.allocate(pages);
            long addr = ctx.mappings().map(len);
            try {
                libc.madvise(addr, len, Libc.MADV_NOHUGEPAGE);
                Libc.memset(addr, 1, len);
                check(libc, addr, len, vec, pages, 1);
                sample = PerPageFit.sample(ctx, pages, n -> time(libc, addr, n * Libc.PAGE, vec));
                libc.madvise(addr, len, Libc.MADV_DONTNEED);
                check(libc, addr, len, vec, pages, 0);
            } finally {
                ctx.mappings().unmap(addr, false);
            }
        }
        sample.add(ctx, NAME, BASE, PER_PAGE);
    }

    private static double time(Libc libc, long addr, long len, MemorySegment vec) {
        long t0 = System.nanoTime();
        int rc = libc.mincore(addr, len, vec.address());
        long t1 = System.nanoTime();
        if (rc != 0) {
            throw new ProbeSkipped("mincore failed: " + Errno.name(libc.errno()));
        }
        return t1 - t0;
    }

    /** mincore must report every page resident (1) or every page absent (0). */
    private static void check(Libc libc, long addr, long len, MemorySegment vec, int pages, int expected) {
        if (libc.mincore(addr, len, vec.address()) != 0) {
            throw new ProbeSkipped("mincore failed: " + Errno.name(libc.errno()));
        }
        for (int i = 0; i < pages; i++) {
            if ((vec.get(ValueLayout.JAVA_BYTE, i) & 1) != expected) {
                throw new IllegalStateException("mincore reports page " + i + " as "
                        + (expected == 1 ? "absent after touching it" : "resident after MADV_DONTNEED"));
            }
        }
    }
}
