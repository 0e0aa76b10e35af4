package org.pagefabric.hw.os;

import java.io.PrintStream;
import java.lang.ref.Reference;
import java.util.Locale;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * What the host memory model costs in Java heap, for {@code pagefabric bench model}: idle nodes
 * (RAM nobody touched) and one large, partly touched address space. Reports both the model's own
 * estimate ({@code footprintBytes()}, summed from array sizes) and the heap growth measured
 * around building the scenario (coarse: it includes garbage the collector left).
 */
public final class MemoryFootprint {
    private static final long GIB = 1L << 30;

    private MemoryFootprint() {
    }

    /**
     * One scenario's numbers.
     *
     * @param scenario       what was built
     * @param modelBytes     the model's own estimate of its heap, bytes
     * @param measuredBytes  heap growth measured around the scenario, bytes (after GC)
     * @param pageTables     page-table pages allocated (0 for idle nodes)
     * @param residentPages  4 KiB pages resident in the scenario's processes
     */
    public record Report(String scenario, long modelBytes, long measuredBytes, long pageTables, long residentPages) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%-58s model %,14d B   measured %,14d B   tables %,7d   resident %,10d pages",
                    scenario, modelBytes, measuredBytes, pageTables, residentPages);
        }
    }

    /** {@code nodes} kernels with {@code ramBytes} of RAM each and one process each, nothing touched. */
    public static Report idleNodes(int nodes, long ramBytes, OsCosts costs) {
        long before = usedHeap();
        Kernel[] kernels = new Kernel[nodes];
        long model = 0;
        for (int i = 0; i < nodes; i++) {
            kernels[i] = newKernel(ramBytes, ThpMode.NEVER, costs);
            kernels[i].createProcess(0, false);
            model += kernels[i].footprintBytes();
        }
        long measured = usedHeap() - before;
        Reference.reachabilityFence(kernels);
        return new Report(String.format(Locale.ROOT, "%d idle nodes x %d GiB RAM", nodes, ramBytes / GIB),
                model, measured, 0, 0);
    }

    /**
     * One process mapping {@code mappedBytes} and touching the first {@code touchedBytes} of it,
     * on a node with {@code ramBytes} of RAM. With {@code tagged}, every touched page also gets
     * one content-tag run (bulk data); otherwise pages are faulted in and stay zero.
     */
    public static Report touchedAddressSpace(long ramBytes, long mappedBytes, long touchedBytes, ThpMode thp,
            boolean tagged, OsCosts costs) {
        long before = usedHeap();
        Kernel k = newKernel(ramBytes, thp, costs);
        AddressSpace as = k.createProcess(0, false);
        long base = k.mmap(as, 0, mappedBytes, Prot.READ_WRITE, MapFlags.NONE).address();
        if (tagged) {
            k.writeTag(as, base, touchedBytes, 0x5eed, 0);
        } else {
            for (long off = 0; off < touchedBytes; off += Kernel.PAGE_SIZE) {
                k.touch(as, base + off, true);
            }
        }
        long measured = usedHeap() - before;
        long model = k.footprintBytes();
        Reference.reachabilityFence(k);
        return new Report(String.format(Locale.ROOT, "%d GiB mapped, %d MiB touched%s, THP %s", mappedBytes / GIB,
                touchedBytes >> 20, tagged ? " (tagged)" : "", thp), model, measured, as.pageTable().tableCount(),
                as.residentPages());
    }

    /**
     * Prints the standard scenarios: 4096 idle 64 GiB nodes, and a 64 GiB address space with
     * 1 GiB touched (zero pages, tagged pages, and with THP).
     */
    public static void run(PrintStream out, OsCosts costs) {
        out.println(idleNodes(4096, 64 * GIB, costs));
        out.println(touchedAddressSpace(64 * GIB, 64 * GIB, GIB, ThpMode.NEVER, false, costs));
        out.println(touchedAddressSpace(64 * GIB, 64 * GIB, GIB, ThpMode.NEVER, true, costs));
        out.println(touchedAddressSpace(64 * GIB, 64 * GIB, GIB, ThpMode.ALWAYS, false, costs));
    }

    private static Kernel newKernel(long ramBytes, ThpMode thp, OsCosts costs) {
        // the footprint does not depend on the statistics' clock: nothing is timed here
        return new Kernel(new PhysicalMemory(ramBytes), new Swap(ramBytes / Kernel.PAGE_SIZE), costs,
                KernelConfig.linux(thp), new StatisticsRegistry(() -> 0L), "footprint");
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
