package org.pagefabric.reg.rendezvous;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;
import org.pagefabric.reg.pinning.NicRegistrationCosts;

/** Rendezvous: the target pins on demand after an active-message handshake. */
public final class RendezvousProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        List<Parameter> costs = ParameterRegistry.of(declaringClasses(), NicRegistrationCosts.PARAMETERS);
        List<Statistic> stats = Rendezvous.STATISTICS;
        all.add(new PolicyDescriptor(Rendezvous.WITH_UNPIN, "rendezvous: active-message handshake, target pins on demand"
                + " and unpins after each operation; sources in a bounded local pin cache", Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), costs, stats,
                p -> new Rendezvous(p, true)));
        all.add(new PolicyDescriptor(Rendezvous.NO_UNPIN, "rendezvous without unpin: an active-message handshake before"
                + " every operation; the target pins on demand and keeps every range pinned; sources in a bounded local"
                + " pin cache", Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), costs, stats, p -> new Rendezvous(p, false)));
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(RendezvousParameters.class);
    }
}
