package org.pagefabric.reg.bounce;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.MemoryParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;

/** Bounce buffers: copies through statically pinned buffers. */
public final class BounceProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        all.add(new PolicyDescriptor(BounceBuffers.NAME, "bounce buffers: puts copied into statically pinned buffers, written"
                + " into the target's and copied out there by its CPU, in pieces; no user memory registered",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.SEND_RECEIVE), ParameterRegistry.of(declaringClasses(), List.of(MemoryParameters.BANDWIDTH)), List.of(), BounceBuffers::new));
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(BounceParameters.class);
    }
}
