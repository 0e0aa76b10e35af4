package org.pagefabric.workload.trace;

import java.util.List;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadProvider;

/** The trace replay workload. */
public final class TraceWorkloads implements WorkloadProvider {
    @Override
    public List<Workload> workloads() {
        return List.of(new TraceWorkload());
    }
}
