package org.pagefabric.reg.am;

import org.pagefabric.config.Profile;
import org.pagefabric.reg.pin.PinnedRegistration;
import org.pagefabric.workload.dht.DhtScheme;
import org.pagefabric.workload.dht.DhtSchemeProvider;

/**
 * A hashtable baseline of 002 §5.2 as a registration policy: memory is registered as
 * {@code pin-all} does (the baselines run over pinned memory, 002 §5.2 "traditional RMA
 * representing RDMA architectures"), and the {@code dht-insert} workload gets the baseline's
 * {@link DhtScheme}.
 */
public final class DhtBaselinePolicy extends PinnedRegistration implements DhtSchemeProvider {
    private final DhtBaseline baseline;

    /** The baseline with registration costs from {@code profile}. */
    public DhtBaselinePolicy(Profile profile, DhtBaseline baseline) {
        super(profile);
        this.baseline = baseline;
    }

    @Override
    public String name() {
        return baseline.policyName();
    }

    @Override
    public DhtScheme newDhtScheme() {
        return baseline.newScheme();
    }
}
