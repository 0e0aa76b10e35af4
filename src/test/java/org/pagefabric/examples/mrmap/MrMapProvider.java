package org.pagefabric.examples.mrmap;

import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ParameterSet;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/**
 * Declares the example policy and its parameter; listed in
 * {@code META-INF/services/org.pagefabric.reg.PolicyProvider} and
 * {@code META-INF/services/org.pagefabric.config.ParameterSet} of this jar.
 */
public final class MrMapProvider implements PolicyProvider, ParameterSet {
    @Override
    public List<PolicyDescriptor> policies() {
        return List.of(new PolicyDescriptor(MrMapPolicy.NAME,
                "example: pin-all whose keys are looked up in a software memory-region map on every operation",
                Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE, Capability.PAGED_OUT_MEMORY),
                ParameterRegistry.matching("example.mr_map.", "nic.register.", "os.pin."),
                List.of(new Statistic(MrMapPolicy.NAME + ".lookups", "lookups", "memory-region map lookups")),
                MrMapPolicy::new));
    }

    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(MrMapParameters.class);
    }
}
