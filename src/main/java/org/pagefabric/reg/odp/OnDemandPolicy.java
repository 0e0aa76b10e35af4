package org.pagefabric.reg.odp;

import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.node.Node;
import org.pagefabric.reg.OnDemandPaging;
import org.pagefabric.reg.RegistrationPolicy;

/** A policy over the node's ODP driver: pages are faulted in on demand, and nothing is ever pinned. */
abstract class OnDemandPolicy implements RegistrationPolicy {
    /** Where the driver's and the policy's costs come from. */
    final Profile profile;

    OnDemandPolicy(Profile profile) {
        this.profile = profile;
    }

    /** The node's driver, which every ODP policy and workload on the node shares. */
    @Override
    public final OnDemandPaging onDemandPaging(Node node) {
        return OdpDriver.attach(node, profile);
    }

    /** Nothing is ever pinned. */
    @Override
    public final long pinnedBytes(Endpoint rank) {
        return 0;
    }
}
