package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.PoolRegistrar;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Registering and deregistering a large pool, as a KV-cache store or a PGAS runtime does at start
 * and at exit: {@code large_count} buffers of {@code large_MiB} and {@code small_count} of
 * {@code small_MiB}, in {@code order}, each registered on every one of {@code nics} protection
 * domains (one per NIC, as the Mooncake transfer engine registers a buffer on each RNIC), by
 * {@code threads} threads that take the next (buffer, NIC) registration when free. A registration
 * costs {@code nic.register.base} plus {@code nic.register.per_page} per page of the buffer's page
 * size ({@code page_KiB} for host memory, {@code device_page_KiB} for device memory), plus, for
 * device memory, the domain growth of {@link PoolRegistrar} on what its domain already holds (each
 * domain starts holding {@code prior_GiB} of device memory, registered before the timed part); a
 * deregistration costs {@code nic.deregister.base} plus {@code nic.deregister.per_page} per page.
 * Costs are per registration call, never per simulated page, so a pool of hundreds of GB costs
 * as little to simulate as one page. Threads share no lock here: where the kernel serialises
 * concurrent pinning of the same pages (their reference counts), the model does not, and
 * {@code threads} then scales perfectly. It runs under {@code pin-all} only: an on-demand policy
 * registers nothing up front. Rank 1 only gives the topology its second node.
 */
public final class RegPoolWorkload extends AbstractWorkload {
    private static final String PINNING_POLICY = "pin-all";
    private static final double MIB = 1024.0 * 1024;
    private static final double GIB = MIB * 1024;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.integer("large_count", 1, "", "buffers of large_MiB", 0, 1 << 20),
            WorkloadParameter.decimal("large_MiB", 1024, "MiB", "size of each large buffer", 0, 1 << 24),
            WorkloadParameter.integer("small_count", 0, "", "buffers of small_MiB", 0, 1 << 20),
            WorkloadParameter.decimal("small_MiB", 2, "MiB", "size of each small buffer", 0, 1 << 24),
            WorkloadParameter.choice("order", "the order buffers are registered in: ascending (small ones first) or "
                    + "descending (large ones first); deregistration follows the same order", "ascending", "descending"),
            WorkloadParameter.integer("page_KiB", 4, "KiB", "page size backing host buffers (4 KiB base pages, 2048 KiB "
                    + "huge pages)", 4, 1 << 20),
            WorkloadParameter.integer("device_page_KiB", 64, "KiB", "page size in which a GPU's memory is pinned "
                    + "for a NIC (64 KiB: NVIDIA GPUDirect RDMA's GPU page)", 4, 1 << 20),
            WorkloadParameter.choice("memory", "host memory, or device (GPU) memory whose registration grows with what "
                    + "the domain holds (nic.register.device_growth)", "host", "device"),
            WorkloadParameter.decimal("prior_GiB", 0, "GiB", "device memory each domain holds before the timed "
                    + "registrations", 0, 1 << 20),
            WorkloadParameter.integer("nics", 1, "", "protection domains (NICs) each buffer is registered on", 1, 1024),
            WorkloadParameter.integer("threads", 1, "", "registration threads, each taking the next (buffer, NIC) "
                    + "registration when free", 1, 4096));

    private static final List<String> METRICS = PointRun.metricsBeforeVerified(List.of(
            "register_s", "deregister_s", "register_GBps", "first_ms", "last_ms", "pool_GB"));

    /** The workload with its declared metadata. */
    public RegPoolWorkload() {
        super(WorkloadDescriptor.of("reg-pool", "register and deregister a pool of large (hundreds of GB) and small "
                + "buffers on one or more NICs with T threads; registration and deregistration time, GB/s, first and "
                + "last buffer's cost")
                .parameters(PARAMETERS).lowerIsBetter("register_s").metrics(METRICS)
                // The pool is costed, never mapped: the ranks' segments stay one page.
                .segment(4096)
                .check(Plan::of)
                .build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        if (!PINNING_POLICY.equals(job.policy().name())) {
            throw new PolicyRefusal("reg-pool registers a pool up front as ibv_reg_mr and fi_mr_reg do (pinned, "
                    + "costed per call); it runs under " + PINNING_POLICY + " only");
        }
        Plan plan = Plan.of(params);
        PoolRegistrar registrar = new PoolRegistrar(job.cluster().profile(), plan.nics);
        if (plan.device && plan.priorBytes > 0) {
            for (int n = 0; n < plan.nics; n++) {
                registrar.holdBefore(n, plan.priorBytes);
            }
        }
        int items = plan.buffers.size() * plan.nics;
        long[] regCost = new long[plan.buffers.size()];
        long[] done = {0, 0};
        long[] end = {0, 0};
        int[] next = {0, 0};
        var node = job.rank(0).node();
        // Registration phase, then (after every thread finished) deregistration in the same order.
        for (int t = 0; t < plan.threads; t++) {
            new SimProcess(job.simulator(), node, "reg" + t, ctx -> {
                while (next[0] < items) {
                    int i = next[0]++;
                    int b = i / plan.nics;
                    long bytes = plan.buffers.get(b);
                    long cost = registrar.register(i % plan.nics, bytes, plan.pageBytes, plan.device);
                    regCost[b] += cost;
                    ctx.sleep(cost);
                    latencies.record(cost);
                }
                end[0] = Math.max(end[0], ctx.now());
                if (++done[0] == plan.threads) {
                    startDeregistration(job, node, plan, registrar, next, done, end, items);
                }
            }).start();
        }
        return Run.of(() -> done[1] == plan.threads && next[1] == items, () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            double regS = end[0] / (double) Time.S;
            m.put("register_s", round(regS));
            m.put("deregister_s", round((end[1] - end[0]) / (double) Time.S));
            m.put("register_GBps", regS == 0 ? 0.0 : round(plan.totalBytes / 1e9 / regS));
            m.put("first_ms", round(regCost[0] / (double) Time.MS));
            m.put("last_ms", round(regCost[regCost.length - 1] / (double) Time.MS));
            m.put("pool_GB", round(plan.totalBytes / 1e9));
            return m;
        });
    }

    private static void startDeregistration(Job job, org.pagefabric.hw.node.Node node, Plan plan,
                                            PoolRegistrar registrar, int[] next,
                                            long[] done, long[] end, int items) {
        for (int t = 0; t < plan.threads; t++) {
            new SimProcess(job.simulator(), node, "dereg" + t, ctx -> {
                while (next[1] < items) {
                    int i = next[1]++;
                    long bytes = plan.buffers.get(i / plan.nics);
                    ctx.sleep(registrar.deregister(i % plan.nics, bytes, plan.pageBytes, plan.device));
                }
                end[1] = Math.max(end[1], ctx.now());
                done[1]++;
            }).start();
        }
    }

    /** Six significant digits: seconds of a 500 GB pool and microseconds of a huge-page one alike. */
    private static double round(double x) {
        if (x == 0) {
            return 0;
        }
        return new java.math.BigDecimal(x).round(new java.math.MathContext(6)).doubleValue();
    }

    /** The buffers in registration order and how they are registered. */
    record Plan(List<Long> buffers, long totalBytes, long pageBytes, boolean device, long priorBytes, int nics,
                int threads) {
        static Plan of(Params params) {
            long largeCount = params.longValue("large_count");
            long large = Math.round(params.doubleValue("large_MiB") * MIB);
            long smallCount = params.longValue("small_count");
            long small = Math.round(params.doubleValue("small_MiB") * MIB);
            boolean device = params.is("memory", "device");
            String pageKey = device ? "device_page_KiB" : "page_KiB";
            long pageKiB = params.longValue(pageKey);
            if (Long.bitCount(pageKiB) != 1) {
                throw new IllegalArgumentException(pageKey + ": " + pageKiB + " is not a power of two; valid: 4, 64, "
                        + "2048, 1048576 and the other powers of two from 4");
            }
            List<Long> smalls = new ArrayList<>();
            List<Long> larges = new ArrayList<>();
            for (long i = 0; i < smallCount; i++) {
                if (small > 0) {
                    smalls.add(small);
                }
            }
            for (long i = 0; i < largeCount; i++) {
                if (large > 0) {
                    larges.add(large);
                }
            }
            List<Long> buffers = new ArrayList<>();
            boolean ascending = params.is("order", "ascending");
            buffers.addAll(ascending ? smalls : larges);
            buffers.addAll(ascending ? larges : smalls);
            if (buffers.isEmpty()) {
                throw new IllegalArgumentException("large_count x large_MiB + small_count x small_MiB: the pool is "
                        + "empty; valid: at least one buffer of more than 0 MiB");
            }
            long total = buffers.stream().mapToLong(Long::longValue).sum();
            return new Plan(List.copyOf(buffers), total, pageKiB * 1024, device,
                    Math.round(params.doubleValue("prior_GiB") * GIB), params.intValue("nics"), params.intValue("threads"));
        }
    }
}
