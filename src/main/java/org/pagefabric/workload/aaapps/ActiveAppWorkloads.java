package org.pagefabric.workload.aaapps;

import java.util.List;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadProvider;

/** The Active Access applications of 002 §6: access counting, logged gets, CoralSort. */
public final class ActiveAppWorkloads implements WorkloadProvider {
    @Override
    public List<Workload> workloads() {
        return List.of(new AccessCounterWorkload(), new LoggedGetsWorkload(), new CoralSortWorkload(),
                new IncastWorkload());
    }
}
