package org.pagefabric.workload;

import java.util.List;
import org.pagefabric.config.ParameterSet;

/** The profile parameters workloads read: the molecular-dynamics application's costs. */
public final class WorkloadParameters implements ParameterSet {
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(MdParameters.class);
    }
}
