package org.pagefabric.workload.aaapps;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagefabric.active.ActiveAccess;
import org.pagefabric.active.Notification;
import org.pagefabric.comm.Job;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.SchemeRegistry;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.WorkloadDescriptor;
import org.pagefabric.workload.WorkloadParameter;

/**
 * What the Active Access applications share: {@code processes} light processes,
 * {@code processes_per_node} per node (002 §5.2: 32), traffic as datagrams over the
 * {@link AppFabric} (no queue pairs, so 1024 processes fit one simulation), the {@code scheme}
 * parameter ({@link AppSchemeProvider}), and the traffic metrics the power model needs.
 */
abstract class AppWorkload extends AbstractWorkload {
    static final String PROCESSES = "processes";
    static final String PER_NODE = "processes_per_node";
    static final String COMP_RATIO = "comp_ratio";
    static final String BYTES = "bytes_communicated";
    static final String NIC_BYTES_MAX = "nic_bytes_max";
    static final String STALLS = "log_stalls";

    AppWorkload(String name, String description, List<WorkloadParameter> own, String mainMetric,
                boolean higherIsBetter, List<String> ownMetrics) {
        super(WorkloadDescriptor.of(name, description).ranks(AppWorkload::nodes).ownTraffic()
                .parameters(withCommon(name, own)).judgedBy(mainMetric, higherIsBetter).metrics(metrics(ownMetrics))
                // the data lives in the workload's own arrays; each node registers one page of segment
                .segment(Kernel.PAGE_SIZE).build());
    }

    private static int nodes(Params params) {
        long processes = params.longValue(PROCESSES);
        long perNode = params.longValue(PER_NODE);
        return (int) Math.max(2, Math.ceilDiv(processes, perNode));
    }

    private static List<String> metrics(List<String> own) {
        List<String> add = new ArrayList<>(own);
        add.addAll(List.of(STALLS, BYTES, NIC_BYTES_MAX));
        return PointRun.metricsAfterVerified(add);
    }

    private static List<WorkloadParameter> withCommon(String workload, List<WorkloadParameter> own) {
        List<WorkloadParameter> all = new ArrayList<>();
        all.add(StandardParameters.scheme(workload, "rma"));
        all.add(WorkloadParameter.integer(PROCESSES, 64, "", "processes, each owning its part of the data", 2, 65536));
        all.add(WorkloadParameter.integer(PER_NODE, 32, "", "processes per node (002 §5.2: 32)", 1, 1024));
        all.addAll(own);
        return all;
    }

    /** The {@code comp_ratio} parameter: the share of each process's time spent computing. */
    static WorkloadParameter compRatio() {
        return WorkloadParameter.decimal(COMP_RATIO, 0, "", "share of each process's time spent computing (R_comp),"
                + " below 1", 0, 1);
    }

    /**
     * The run's {@code comp_ratio}, which must leave time to {@code act}.
     *
     * @throws IllegalArgumentException if it is 1 (or more): no time left to act
     */
    static double compRatio(Params params, String act) {
        double comp = params.doubleValue(COMP_RATIO);
        if (comp >= 1) {
            throw new IllegalArgumentException(COMP_RATIO + ": " + comp + " leaves no time to " + act
                    + "; valid: 0 to below 1");
        }
        return comp;
    }

    static int processes(Params params) {
        return params.intValue(PROCESSES);
    }

    static int perNode(Params params) {
        return params.intValue(PER_NODE);
    }

    /**
     * The run's scheme, checked against the job's registration policy.
     *
     * @throws org.pagefabric.reg.PolicyRefusal if the policy does not give the scheme the registration it needs
     */
    AppScheme scheme(Job job, Params params) {
        return SchemeRegistry.standard().forRun(params.choice(StandardParameters.SCHEME), name(),
                job.policy().name()).create(AppScheme.class);
    }

    /**
     * The datagram fabric of a run: {@code processes} processes, {@code processes_per_node} a
     * node, over the job's cluster, calling back into {@code hooks}.
     */
    static AppFabric fabric(Job job, Params params, AppFabric.Hooks hooks, AppScheme scheme, boolean logGets,
            boolean countPuts) {
        return new AppFabric(job.simulator(), job.cluster(), job.cluster().profile(), hooks, scheme,
                notification(job), processes(params), perNode(params), logGets, countPuts);
    }

    /** How the job's Active Access notifies handlers; polling without Active Access (unused there). */
    static Notification notification(Job job) {
        ActiveAccess aa = job.policy().activeAccess();
        return aa == null ? Notification.POLLING : aa.notification();
    }

    /** The order-sensitive chain of a log: {@code chain} extended by the entry {@code seq} with data digest {@code digest}. */
    static long chain(long chain, long seq, long digest) {
        return org.pagefabric.sim.RandomStream.mix64(chain + org.pagefabric.sim.RandomStream.mix64(seq) ^ digest);
    }

    static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }

    /** Traffic columns every application reports. */
    static void traffic(Map<String, Object> m, AppFabric fabric, int nodes) {
        long max = 0;
        for (int n = 0; n < nodes; n++) {
            max = Math.max(max, fabric.nodeBytes(n));
        }
        m.put(STALLS, fabric.stalls());
        m.put(BYTES, fabric.bytes());
        m.put(NIC_BYTES_MAX, max);
    }
}
