package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * What pinning costs on a host (003 §4.1, Table 1): a driver pins a resident user region with
 * get_user_pages and unpins it with put_page per page, as the Open-MX driver does for a
 * communication, and the time both take is measured in simulated time. Regions of 1, 2, 4, ...
 * {@code fit_max_pages} pages are pinned and unpinned {@code iterations} times each and a least
 * squares line through (pages, time) gives the base cost (intercept) and the per-page cost
 * (slope); the pinning throughput is the largest region's bytes over its time. The region of
 * {@code pages} pages is timed on its own as well ({@code pin_us}). The inputs are the profile's
 * per-call and per-page kernel costs; the fit is what the kernel model makes of them (faults
 * on pages not resident, for one, would show in it). Rank 0 pins; rank 1 only gives the
 * network its second end (topologies need two nodes) and stays idle.
 */
public final class PinCostWorkload extends AbstractWorkload {
    /** Column of the region size. */
    public static final String PAGES = "pages";
    /** Column of the largest region of the fit. */
    public static final String FIT_MAX = "fit_max_pages";

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.integer(PAGES, 256, "", "pages in the region pinned and unpinned for pin_us", 1, 1 << 20),
            WorkloadParameter.integer(StandardParameters.ITERATIONS, 20, "",
                    "pin+unpin repetitions per region size", 1, 1 << 20),
            // 4096 pages = 16 MiB: the largest region of Table 1's sweep in omx.table1
            WorkloadParameter.integer(FIT_MAX, 4096, "",
                    "largest region of the fit; the fit pins 1, 2, 4, ... up to this many pages", 2, 1 << 20));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsBeforeVerified(List.of("pin_us", "pin_base_us", "pin_per_page_ns", "pin_throughput_GBps"));
    }

    /** The workload with its declared metadata. */
    public PinCostWorkload() {
        super(WorkloadDescriptor.of("pin-cost", "pin (get_user_pages) + unpin (put_page) of a resident region on one"
                + " host: time per region, and base and per-page cost by a least squares fit over region sizes")
                .parameters(PARAMETERS).lowerIsBetter("pin_us").metrics(METRICS)
                .segment(p -> Math.max(pages(p), fitMax(p)) * (long) Kernel.PAGE_SIZE).build());
    }

    private static int pages(Params params) {
        return params.intValue(PAGES);
    }

    private static int fitMax(Params params) {
        return params.intValue(FIT_MAX);
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int pages = pages(params);
        int iterations = StandardParameters.iterations(params);
        int fitMax = fitMax(params);
        Rank r = job.rank(0);
        long unpinBase = job.cluster().profile().time(OsParameters.UNPIN_BASE);
        List<Integer> ladder = new ArrayList<>();
        for (long n = 1; n <= fitMax; n *= 2) {
            ladder.add((int) n);
        }
        if (ladder.get(ladder.size() - 1) != fitMax) {
            ladder.add(fitMax);
        }
        Map<Integer, Double> meanPs = new LinkedHashMap<>();
        boolean[] ok = {true};
        long[] timed = new long[1];
        new SimProcess(job.simulator(), r.node(), "rank0", ctx -> {
            for (int n : ladder) {
                long sum = 0;
                for (int i = 0; i < iterations; i++) {
                    sum += pinUnpin(ctx, r, n, unpinBase, ok);
                }
                meanPs.put(n, sum / (double) iterations);
            }
            for (int i = 0; i < iterations; i++) {
                long t = pinUnpin(ctx, r, pages, unpinBase, ok);
                latencies.record(t);
                timed[0] += t;
            }
        }).start();
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return timed[0] == 0 ? 0 : (double) pages * Kernel.PAGE_SIZE * iterations / (timed[0] / (double) Time.S);
            }

            @Override
            public boolean verified() {
                return ok[0] && meanPs.size() == ladder.size();
            }

            @Override
            public Map<String, Object> extraMetrics() {
                double[] fit = LeastSquares.line(meanPs);
                double largest = meanPs.get(fitMax);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("pin_us", round(timed[0] / (double) iterations / Time.US));
                m.put("pin_base_us", round(fit[0] / Time.US));
                m.put("pin_per_page_ns", round(fit[1] / Time.NS));
                m.put("pin_throughput_GBps", round((double) fitMax * Kernel.PAGE_SIZE / (largest / Time.S) / 1e9));
                return m;
            }
        };
    }

    /**
     * Pins the first {@code n} pages of the rank's segment and unpins them, as a driver does for
     * one communication, and returns the simulated time both took. Every pinned frame must be
     * the one the page table maps, and no pin may be left behind; {@code ok} records it.
     */
    private static long pinUnpin(ProcessContext ctx, Rank r, int n, long unpinBase, boolean[] ok) {
        ProcessMemory mem = r.memory();
        AddressSpace as = r.process();
        long t0 = ctx.now();
        PinResult pin = mem.getUserPages(r.segment(), n, true);
        ctx.sleep(pin.costPs());
        if (!pin.complete()) {
            ok[0] = false;
            return ctx.now() - t0;
        }
        long unpin = unpinBase;
        for (int i = 0; i < n; i++) {
            long frame = pin.frames()[i];
            ok[0] &= frame == as.physicalAddress(r.segment() + (long) i * Kernel.PAGE_SIZE) >>> 12;
            unpin += mem.putPage(frame);
        }
        ctx.sleep(unpin);
        return ctx.now() - t0;
    }

    private static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }
}
