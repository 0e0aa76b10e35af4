package org.pagefabric.reg.pin;

import org.pagefabric.hw.profile.Profile;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.Rank;

/**
 * A policy whose memory is registered as {@code pin-all} registers it, and which differs in what
 * it gives a workload instead: the communication schemes of 002 §5.2 (RMA, active messages, an
 * active key-value store, ...) run over pinned memory and differ in how they use it.
 */
public abstract class PinnedRegistration implements RegistrationPolicy {
    private final PinEverything registration;

    /** Registration costs from {@code profile}. */
    protected PinnedRegistration(Profile profile) {
        this.registration = new PinEverything(profile);
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
