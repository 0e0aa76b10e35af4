package org.pagefabric.workload;

import java.util.List;

/**
 * A package of workloads, found through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.pagefabric.workload.WorkloadProvider}), so that a workload in a
 * user's jar runs under every command without a change to PageFabric.
 */
public interface WorkloadProvider {
    /** The workloads this package offers, in the order listings show them. */
    List<Workload> workloads();
}
