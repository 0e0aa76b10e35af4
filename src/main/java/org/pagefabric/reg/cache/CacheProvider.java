package org.pagefabric.reg.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.pinning.NicRegistrationCosts;

/** Pin-down caches, one per way of hearing that memory was unmapped. */
public final class CacheProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (MonitorKind m : MonitorKind.values()) {
            all.add(new PolicyDescriptor(m.policyName(), m.description(), Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE),
                    ParameterRegistry.of(declaringClasses(), NicRegistrationCosts.PARAMETERS), List.of(), p -> new PinDownCache(p, m)));
        }
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(RegistrationCacheParameters.class);
    }
}
