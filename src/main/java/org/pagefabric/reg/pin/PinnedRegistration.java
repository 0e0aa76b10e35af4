package org.pagefabric.reg.pin;

import org.pagefabric.config.Profile;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.endpoint.Endpoint;

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
    public long setUp(Endpoint rank) {
        return registration.setUp(rank);
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        return registration.local(ctx, rank, va, length);
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        return registration.remote(ctx, initiator, target, va, length);
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        return registration.pinnedBytes(rank);
    }
}
