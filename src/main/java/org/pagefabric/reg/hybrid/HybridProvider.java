package org.pagefabric.reg.hybrid;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.MemoryParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.pinning.NicRegistrationCosts;

/** The copy-below, register-above policy of libfabric's EFA provider. */
public final class HybridProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        return List.of(new PolicyDescriptor(HybridPolicy.NAME, "puts up to hybrid.copy_threshold copied through bounce"
                + " buffers, longer ones registered through a pin-down cache (libfabric EFA's FI_EFA_MAX_MEMCPY_SIZE);"
                + " gets, sends and receives registered",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE),
                hybridParameters(),
                List.of(), HybridPolicy::new));
    }

    /**
     * Its threshold, and what its halves read: the registry's {@code bounce} and
     * {@code cache-uffd}, which {@link HybridPolicy} takes from the registry by name as it is
     * not to name another policy package's classes, so their packages' parameters are named by
     * their prefixes here.
     */
    private List<Parameter> hybridParameters() {
        List<Parameter> halves = new ArrayList<>(ParameterRegistry.matching("bounce.", "cache."));
        halves.add(MemoryParameters.BANDWIDTH);
        halves.addAll(NicRegistrationCosts.PARAMETERS);
        return ParameterRegistry.of(declaringClasses(), halves);
    }

    /** The threshold this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(HybridParameters.class);
    }
}
