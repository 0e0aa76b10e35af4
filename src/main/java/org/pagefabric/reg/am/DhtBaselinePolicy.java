package org.pagefabric.reg.am;

import org.pagefabric.hw.profile.Profile;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.Rank;
import org.pagefabric.workload.dht.DhtScheme;
import org.pagefabric.workload.dht.DhtSchemeProvider;

/**
 * A hashtable baseline of 002 §5.2 as a registration policy: memory is registered as
 * {@code pin-all} does (the baselines run over pinned memory, 002 §5.2 "traditional RMA
 * representing RDMA architectures"), and the {@code dht-insert} workload gets the baseline's
 * {@link DhtScheme}.
 */
public final class DhtBaselinePolicy implements RegistrationPolicy, DhtSchemeProvider {
    private final DhtBaseline baseline;
    private final PinEverything registration;

    /** The baseline with registration costs from {@code profile}. */
    public DhtBaselinePolicy(Profile profile, DhtBaseline baseline) {
        this.baseline = baseline;
        this.registration = new PinEverything(profile);
    }

    @Override
    public String name() {
        return baseline.policyName();
    }

    @Override
    public DhtScheme newDhtScheme() {
        return baseline.newScheme();
    }

    @Override
    public long setUp(Rank rank) {
        return registration.setUp(rank);
    }

    @Override
    public Access local(ProcessContext ctx, Rank rank, long va, long length) {
        return registration.local(ctx, rank, va, length);
    }

    @Override
    public Access remote(ProcessContext ctx, Rank initiator, Rank target, long va, long length) {
        return registration.remote(ctx, initiator, target, va, length);
    }

    @Override
    public long pinnedBytes(Rank rank) {
        return registration.pinnedBytes(rank);
    }
}
