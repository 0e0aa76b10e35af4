package org.pagefabric.reg.hybrid;

import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;

/**
 * Copy below a threshold, register above it, as libfabric's EFA provider does: a put of at most
 * {@code hybrid.copy_threshold} bytes is copied into pre-registered bounce buffers (no
 * registration, two CPU copies), a longer one registers the user buffer through a pin-down cache
 * whose monitor is userfaultfd (libfabric's MR cache), so that repeated large transfers pay the
 * registration once.
 *
 * <p>Both halves are the registry's own policies ({@code bounce} and {@code cache-uffd}), each
 * set up on every rank, so the hybrid inherits their costs and statistics unchanged. Gets, sends
 * and receives always take the registered half: bounce buffers carry no gets, and a receive's
 * posted length does not say which half the message that matches it will take.
 */
public final class HybridPolicy implements RegistrationPolicy {
    /** The command-line name. */
    public static final String NAME = "hybrid";
    /** The policy that copies. */
    static final String COPYING = "bounce";
    /** The policy that registers. */
    static final String REGISTERING = "cache-uffd";

    private final long threshold;
    private final RegistrationPolicy copying;
    private final RegistrationPolicy registering;

    /** The policy with its threshold and both halves' costs from {@code profile}. */
    public HybridPolicy(Profile profile) {
        this.threshold = profile.size(HybridParameters.COPY_THRESHOLD);
        this.copying = PolicyRegistry.standard().create(COPYING, profile);
        this.registering = PolicyRegistry.standard().create(REGISTERING, profile);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The largest put that is copied rather than registered, in bytes. */
    public long threshold() {
        return threshold;
    }

    /** Pins the bounce buffers and prepares the cache: both halves' set-up, one after the other. */
    @Override
    public long setUp(Endpoint rank) {
        return copying.setUp(rank) + registering.setUp(rank);
    }

    @Override
    public void start(JobLayout job) {
        copying.start(job);
        registering.start(job);
    }

    /** Copies a put up to the threshold; leaves a longer one to the rank, with the cache's keys. */
    @Override
    public boolean put(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length,
                       long wrId) {
        if (length <= threshold) {
            return copying.put(ctx, initiator, target, localVa, remoteVa, length, wrId);
        }
        return registering.put(ctx, initiator, target, localVa, remoteVa, length, wrId);
    }

    @Override
    public boolean send(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long length, long wrId) {
        return registering.send(ctx, initiator, target, localVa, length, wrId);
    }

    @Override
    public boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId) {
        return registering.receive(ctx, rank, source, va, length, wrId);
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        return registering.local(ctx, rank, va, length);
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        return registering.remote(ctx, initiator, target, va, length);
    }

    /**
     * Hands every completion to the cache, which releases only what it holds for that buffer: a
     * copied put took no hold, and its completion cannot be told from a get's by its arguments.
     */
    @Override
    public void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa,
                          long length) {
        registering.completed(ctx, initiator, target, localVa, remoteVa, length);
    }

    /** The bounce buffers plus what the cache keeps pinned. */
    @Override
    public long pinnedBytes(Endpoint rank) {
        return copying.pinnedBytes(rank) + registering.pinnedBytes(rank);
    }

    /** The cache's counts: a copied put is neither a hit nor a miss. */
    @Override
    public long count(Metric metric) {
        return registering.count(metric);
    }

    @Override
    public long count(Metric metric, Endpoint rank) {
        return registering.count(metric, rank);
    }

    @Override
    public double mean(Metric metric) {
        return registering.mean(metric);
    }

    @Override
    public void reset(Metric metric) {
        registering.reset(metric);
    }
}
