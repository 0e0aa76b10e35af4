package org.pagefabric.examples.mrmap;

import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/**
 * Declares the example policy and its parameter; listed in
 * {@code META-INF/services/org.pagefabric.reg.PolicyProvider} of this jar, the one place it is named.
 */
public final class MrMapProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        return List.of(new PolicyDescriptor(MrMapPolicy.NAME,
                "example: pin-all whose keys are looked up in a software memory-region map on every operation",
                Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE, Capability.PAGED_OUT_MEMORY),
                ParameterRegistry.of(declaringClasses(), List.of(NicParameters.REGISTER_BASE,
                        NicParameters.REGISTER_PER_PAGE, NicParameters.REGISTER_DONTFORK, OsParameters.PIN_BASE,
                        OsParameters.PIN_PER_PAGE)),
                List.of(new Statistic(MrMapPolicy.NAME + ".lookups", "lookups", "memory-region map lookups")),
                MrMapPolicy::new));
    }

    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(MrMapParameters.class);
    }
}
