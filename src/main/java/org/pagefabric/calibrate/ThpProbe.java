package org.pagefabric.calibrate;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * First touch of a 2 MiB-aligned region with transparent huge pages on (MADV_HUGEPAGE: one
 * fault maps a huge page) and off (MADV_NOHUGEPAGE: 512 base-page faults), where the host's
 * mode allows each. Whether the kernel really used a huge page is read from
 * {@code /proc/self/smaps}; if it did not (fragmented memory, defrag policy), "on" is skipped
 * with that reason rather than reported as a huge-page number.
 */
final class ThpProbe implements Probe {
    static final String NAME = "thp";
    static final String ON = "first touch of 2 MiB, THP on";
    static final String OFF = "first touch of 2 MiB, THP off";
    static final long HUGE = 2L << 20;
    private static final int PAGES = (int) (HUGE / Libc.PAGE);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String measures() {
        return "first touch of a 2 MiB region with transparent huge pages on and off";
    }

    @Override
    public void run(ProbeContext ctx) {
        String mode = ctx.host().thpMode();
        if (mode == null) {
            ctx.skip(NAME, ON, "the kernel has no transparent huge pages (no /sys/kernel/mm/transparent_hugepage)");
        } else if (mode.equals("never")) {
            ctx.skip(NAME, ON, "transparent_hugepage/enabled is [never]");
        } else {
            double[] on = measure(ctx, true);
            if (on == null) {
                ctx.skip(NAME, ON, "the kernel did not back an MADV_HUGEPAGE region with a huge page "
                        + "(memory fragmented or the defrag policy refuses)");
            } else {
                ctx.add(NAME, ON, "us", on);
            }
        }
        ctx.add(NAME, OFF, "us", measure(ctx, false));
    }

    /** Per-repetition times in us, or null if a huge page was asked for and not given. */
    private static double[] measure(ProbeContext ctx, boolean huge) {
        double[] out = new double[ctx.repetitions()];
        for (int rep = -ctx.warmup(); rep < ctx.repetitions(); rep++) {
            ctx.mappings().checkRunning();
            // Twice the size, so that a 2 MiB-aligned block lies inside.
            long addr = ctx.mappings().map(2 * HUGE);
            try {
                long aligned = (addr + HUGE - 1) & -HUGE;
                ctx.libc().madvise(aligned, HUGE, huge ? Libc.MADV_HUGEPAGE : Libc.MADV_NOHUGEPAGE);
                MemorySegment seg = MemorySegment.ofAddress(aligned).reinterpret(HUGE);
                long t0 = System.nanoTime();
                TouchProbe.writeFirstBytes(seg, PAGES);
                long t1 = System.nanoTime();
                if (huge && rep == 0 && anonHugeKiB(aligned) <= 0) {
                    return null;
                }
                if (rep >= 0) {
                    out[rep] = (t1 - t0) / 1000.0;
                }
            } finally {
                ctx.mappings().unmap(addr, false);
            }
        }
        return out;
    }

    /** AnonHugePages of the mapping containing {@code addr}, from /proc/self/smaps; -1 if unreadable. */
    static long anonHugeKiB(long addr) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        } catch (IOException | SecurityException e) {
            return -1;
        }
        boolean inside = false;
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            // A mapping's header starts "start-end perms ..." in hex; its field lines start with a name and a colon.
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+")) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
                continue;
            }
            if (inside && line.startsWith("AnonHugePages:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
