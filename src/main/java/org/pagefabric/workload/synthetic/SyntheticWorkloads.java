package org.pagefabric.workload.synthetic;

import java.util.List;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadProvider;

/** The application described by its parameters rather than by code or a trace. */
public final class SyntheticWorkloads implements WorkloadProvider {
    @Override
    public List<Workload> workloads() {
        return List.of(new SyntheticWorkload());
    }
}
