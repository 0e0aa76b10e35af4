package org.pagefabric.calibrate;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * CPU touches of 4 KiB pages, as seed 000 defines them: the first write to a fresh page (a minor
 * fault: trap, allocate, zero, map; 000's Touch-NoPres), a read-then-write of the first byte of a
 * resident page (000's Touch-Pres), and clearing a resident 4 KiB page (the zeroing part of the
 * minor fault). The loops run in Java, compiled before timing.
 */
final class TouchProbe extends SizedProbe {
    static final String NAME = "touch";
    static final String FIRST = "first touch (minor fault) per page";
    static final String RETOUCH = "re-touch of a present page";
    static final String ZERO = "zero-fill of a resident 4 KiB page";

    private static final int JIT_WARMUP_CALLS = 20_000;

    TouchProbe(int pages) {
        super(NAME, "first-touch minor fault, re-touch of present pages, zero-fill per page", pages);
    }

    @Override
    public void run(ProbeContext ctx) {
        warmJit(ctx);
        int reps = ctx.repetitions();
        double[] first = new double[reps];
        double[] again = new double[reps];
        double[] zero = new double[reps];
        long len = pages * Libc.PAGE;
        for (int rep = -ctx.warmup(); rep < reps; rep++) {
            ctx.mappings().checkRunning();
            long addr = ctx.mappings().map(len);
            try {
                ctx.libc().madvise(addr, len, Libc.MADV_NOHUGEPAGE);
                MemorySegment seg = MemorySegment.ofAddress(addr).reinterpret(len);
                long t0 = System.nanoTime();
                writeFirstBytes(seg, pages);
                long t1 = System.nanoTime();
                readWriteFirstBytes(seg, pages);
                long t2 = System.nanoTime();
                seg.fill((byte) 0);
                long t3 = System.nanoTime();
                if (rep >= 0) {
                    first[rep] = (double) (t1 - t0) / pages;
                    again[rep] = (double) (t2 - t1) / pages;
                    zero[rep] = (double) (t3 - t2) / pages;
                }
            } finally {
                ctx.mappings().unmap(addr, false);
            }
        }
        ctx.add(NAME, FIRST, "ns", first);
        ctx.add(NAME, RETOUCH, "ns", again);
        ctx.add(NAME, ZERO, "ns", zero);
    }

    /** Compiles the touch loops on a few resident pages, so that no timed loop runs interpreted. */
    private static void warmJit(ProbeContext ctx) {
        int few = 4;
        long len = few * Libc.PAGE;
        long addr = ctx.mappings().map(len);
        try {
            MemorySegment seg = MemorySegment.ofAddress(addr).reinterpret(len);
            for (int i = 0; i < JIT_WARMUP_CALLS; i++) {
                writeFirstBytes(seg, few);
                readWriteFirstBytes(seg, few);
            }
        } finally {
            ctx.mappings().unmap(addr, false);
        }
    }

    /** Writes the first byte of each page. */
    static void writeFirstBytes(MemorySegment seg, int pages) {
        for (int i = 0; i < pages; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i * Libc.PAGE, (byte) 1);
        }
    }

    /** Reads, then writes, the first byte of each page. */
    static void readWriteFirstBytes(MemorySegment seg, int pages) {
        for (int i = 0; i < pages; i++) {
            long off = i * Libc.PAGE;
            seg.set(ValueLayout.JAVA_BYTE, off, (byte) (seg.get(ValueLayout.JAVA_BYTE, off) + 1));
        }
    }
}
