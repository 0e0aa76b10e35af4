package org.pagefabric.reg.aaapps;

import org.pagefabric.hw.profile.Profile;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.Rank;
import org.pagefabric.workload.aaapps.AppScheme;
import org.pagefabric.workload.aaapps.AppSchemeProvider;

/**
 * A baseline of the Active Access applications as a registration policy: memory is registered
 * as {@code pin-all} does, and the applications ({@code access-counter}, {@code logged-gets},
 * {@code coral-sort}) run the baseline's {@link AppScheme}.
 */
public final class AppBaselinePolicy implements RegistrationPolicy, AppSchemeProvider {
    private final AppBaseline baseline;
    private final PinEverything registration;

    /** The baseline with registration costs from {@code profile}. */
    public AppBaselinePolicy(Profile profile, AppBaseline baseline) {
        this.baseline = baseline;
        this.registration = new PinEverything(profile);
    }

    @Override
    public String name() {
        return baseline.policyName();
    }

    @Override
    public AppScheme appScheme() {
        return baseline.scheme();
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
