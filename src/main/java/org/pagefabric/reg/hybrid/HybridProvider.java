package org.pagefabric.reg.hybrid;

import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ParameterSet;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;

/** The copy-below, register-above policy of libfabric's EFA provider. */
public final class HybridProvider implements PolicyProvider, ParameterSet {
    @Override
    public List<PolicyDescriptor> policies() {
        return List.of(new PolicyDescriptor(HybridPolicy.NAME, "puts up to hybrid.copy_threshold copied through bounce"
                + " buffers, longer ones registered through a pin-down cache (libfabric EFA's FI_EFA_MAX_MEMCPY_SIZE);"
                + " gets, sends and receives registered",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE),
                ParameterRegistry.matching("hybrid.", "bounce.", "memory.bandwidth", "cache.", "nic.register.",
                        "nic.deregister.", "os.pin.", "os.unpin."),
                List.of(), HybridPolicy::new));
    }

    /** The threshold this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(HybridParameters.class);
    }
}
