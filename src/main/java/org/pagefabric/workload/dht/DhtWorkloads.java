package org.pagefabric.workload.dht;

import java.util.List;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadProvider;

/** The distributed hashtable of 002. */
public final class DhtWorkloads implements WorkloadProvider {
    @Override
    public List<Workload> workloads() {
        return List.of(new DhtInsertWorkload());
    }
}
