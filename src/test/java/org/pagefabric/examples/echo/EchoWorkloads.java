package org.pagefabric.examples.echo;

import java.util.List;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadProvider;

/** The example's workloads, named in this jar's {@code META-INF/services/org.pagefabric.workload.WorkloadProvider}. */
public final class EchoWorkloads implements WorkloadProvider {
    @Override
    public List<Workload> workloads() {
        return List.of(new EchoWorkload());
    }
}
