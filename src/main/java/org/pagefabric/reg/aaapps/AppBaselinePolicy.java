package org.pagefabric.reg.aaapps;

import org.pagefabric.config.Profile;
import org.pagefabric.reg.pin.PinnedRegistration;
import org.pagefabric.workload.aaapps.AppScheme;
import org.pagefabric.workload.aaapps.AppSchemeProvider;

/**
 * A baseline of the Active Access applications as a registration policy: memory is registered
 * as {@code pin-all} does, and the applications ({@code access-counter}, {@code logged-gets},
 * {@code coral-sort}) run the baseline's {@link AppScheme}.
 */
public final class AppBaselinePolicy extends PinnedRegistration implements AppSchemeProvider {
    private final AppBaseline baseline;

    /** The baseline with registration costs from {@code profile}. */
    public AppBaselinePolicy(Profile profile, AppBaseline baseline) {
        super(profile);
        this.baseline = baseline;
    }

    @Override
    public String name() {
        return baseline.policyName();
    }

    @Override
    public AppScheme appScheme() {
        return baseline.scheme();
    }
}
