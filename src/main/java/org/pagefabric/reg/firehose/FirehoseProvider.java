package org.pagefabric.reg.firehose;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.pinning.NicRegistrationCosts;

/** Firehose (004). */
public final class FirehoseProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        all.add(new PolicyDescriptor(FirehosePolicy.NAME, "Firehose (004): F firehoses per remote node moved by active"
                + " messages, bucket reference counts and a victim FIFO; pinned memory within M + MAXVICTIM",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE),
                ParameterRegistry.of(declaringClasses(), NicRegistrationCosts.PARAMETERS),
                FirehoseCounters.STATISTICS, FirehosePolicy::new));
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(FirehoseParameters.class);
    }
}
