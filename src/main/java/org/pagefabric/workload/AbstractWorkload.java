package org.pagefabric.workload;

import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;

/**
 * What every workload declares about itself, held once: its name, one line of description, the
 * ranks it needs, its declared parameters and the metric it is judged by. A workload extends
 * this and writes what it does, {@link #start}, and its segment size if one message at least a
 * page long is not enough.
 */
public abstract class AbstractWorkload implements Workload {
    private final String name;
    private final String description;
    private final int ranks;
    private final List<WorkloadParameter> parameters;
    private final String mainMetric;
    private final boolean higherIsBetter;

    /**
     * @param name           the command-line name
     * @param description    one line saying what is measured
     * @param ranks          ranks the workload needs
     * @param parameters     the declared parameters, {@code size_B} and {@code iterations} first
     * @param mainMetric     the metric the workload is judged by, e.g. {@code latency_us}
     * @param higherIsBetter whether a larger main metric is better
     */
    protected AbstractWorkload(String name, String description, int ranks, List<WorkloadParameter> parameters,
                               String mainMetric, boolean higherIsBetter) {
        this.name = name;
        this.description = description;
        this.ranks = ranks;
        this.parameters = List.copyOf(parameters);
        this.mainMetric = mainMetric;
        this.higherIsBetter = higherIsBetter;
    }

    /** One message of {@code size_B}, at least a page: what a one-buffer workload needs. */
    @Override
    public long segmentBytes(Map<String, Object> params) {
        return Math.max(StandardParameters.size(params), Kernel.PAGE_SIZE);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final int ranks() {
        return ranks;
    }

    @Override
    public final List<WorkloadParameter> parameters() {
        return parameters;
    }

    @Override
    public final String mainMetric() {
        return mainMetric;
    }

    @Override
    public final boolean higherIsBetter() {
        return higherIsBetter;
    }
}
