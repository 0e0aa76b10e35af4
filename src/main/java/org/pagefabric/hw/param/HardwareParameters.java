package org.pagefabric.hw.param;

import java.util.List;
import org.pagefabric.config.ParameterSet;

/** The parameters of the simulated machine, layer by layer from the links up. */
public final class HardwareParameters implements ParameterSet {
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(LinkParameters.class, PcieParameters.class, CpuParameters.class, MemoryParameters.class,
                OsParameters.class, NicParameters.class, IommuParameters.class, TransportParameters.class,
                PartParameters.class, PowerParameters.class, StackParameters.class, VmParameters.class);
    }
}
