package org.pagefabric.reg.openmx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** Open-MX (003): pinning inside its own messaging stack. */
public final class OpenMxProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (PinMode m : PinMode.values()) {
            List<Statistic> stats = OpenMxPolicy.statistics(m);
            all.add(new PolicyDescriptor(m.policyName(), m.description(),
                    Set.of(Capability.PAGED_OUT_MEMORY, Capability.SEND_RECEIVE, Capability.OWN_MESSAGING, Capability.INTERRUPT_PLACEMENT),
                    ParameterRegistry.of(declaringClasses(), List.of(OsParameters.PIN_BASE,
                            OsParameters.PIN_PER_PAGE, OsParameters.UNPIN_BASE, OsParameters.UNPIN_PER_PAGE,
                            OsParameters.MMU_NOTIFIER_INVALIDATE)), stats,
                    p -> new OpenMxPolicy(p, m)));
        }
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(OpenMxParameters.class);
    }
}
