package org.pagefabric.comm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.hw.net.NetworkEnergy;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.node.CostsFromProfile;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Simulator;

/**
 * A parallel job as its application sees it: the {@link JobLayout} of endpoints on a simulated
 * cluster, one registration policy for all of them, every rank prepared by that policy before the
 * workload starts.
 */
public final class Job {
    private final JobLayout layout;
    private final RegistrationPolicy policy;
    private final List<Rank> ranks = new ArrayList<>();
    private long setUpPs;
    /** Told of every job built, before its workload starts: how a trace recorder attaches. */
    private static volatile Consumer<Job> watcher;

    /**
     * Makes {@code w} hear of every job built from now on, in the thread that builds it, once its
     * ranks are prepared and before any workload starts; {@code null} stops it. One watcher at a
     * time: a recording is a property of one command's run.
     */
    public static void watch(Consumer<Job> w) {
        watcher = w;
    }

    /**
     * Builds the cluster and one rank per node, every pair connected.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     */
    public Job(Simulator sim, Profile profile, int nodes, long segmentBytes, RegistrationPolicy policy) {
        this(sim, profile, nodes, nodes, segmentBytes, policy, true);
    }

    /**
     * Builds the cluster and one rank per node, connecting every pair of ranks with RC queue
     * pairs only if {@code connect} says so.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     */
    public Job(Simulator sim, Profile profile, int nodes, long segmentBytes, RegistrationPolicy policy,
               boolean connect) {
        this(sim, profile, nodes, nodes, segmentBytes, policy, connect);
    }

    /**
     * Builds the cluster and {@code rankCount} ranks on {@code nodes} nodes (see {@link JobLayout}),
     * every pair connected.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     * @throws IllegalArgumentException if there are fewer ranks than nodes
     */
    public Job(Simulator sim, Profile profile, int nodes, int rankCount, long segmentBytes, RegistrationPolicy policy) {
        this(sim, profile, nodes, rankCount, segmentBytes, policy, true);
    }

    /**
     * Builds the cluster and {@code rankCount} ranks on {@code nodes} nodes (see {@link JobLayout}),
     * then lets the policy prepare each rank and start.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     * @throws IllegalArgumentException if there are fewer ranks than nodes
     */
    public Job(Simulator sim, Profile profile, int nodes, int rankCount, long segmentBytes, RegistrationPolicy policy,
               boolean connect) {
        this.layout = new JobLayout(sim, profile, nodes, rankCount, segmentBytes, connect);
        this.policy = policy;
        for (Endpoint e : layout.endpoints()) {
            ranks.add(new Rank(e, policy));
        }
        for (Endpoint e : layout.endpoints()) {
            long ps = policy.setUp(e);
            e.chargePolicy(ps);
            setUpPs = Math.max(setUpPs, ps);
        }
        policy.start(layout);
        Consumer<Job> w = watcher;
        if (w != null) {
            w.accept(this);
        }
    }

    /** The endpoints the ranks communicate through. */
    public JobLayout layout() {
        return layout;
    }

    /** The cluster. */
    public Cluster cluster() {
        return layout.cluster();
    }

    /** The simulator. */
    public Simulator simulator() {
        return layout.simulator();
    }

    /** The registration policy. */
    public RegistrationPolicy policy() {
        return policy;
    }

    /** All ranks. */
    public List<Rank> ranks() {
        return Collections.unmodifiableList(ranks);
    }

    /** Rank {@code i}. */
    public Rank rank(int i) {
        return ranks.get(i);
    }

    /** The longest preparation any rank's policy needed, picoseconds. */
    public long setUpPs() {
        return setUpPs;
    }

    /**
     * Time the ranks' own cores spent in the registration path once set up, summed over ranks,
     * picoseconds (see {@link Endpoint#registrationPs()}): what registration costs the
     * application's CPUs. Work done for them in drivers and interrupt handlers is not counted.
     */
    public long registrationPs() {
        long all = 0;
        for (Endpoint e : layout.endpoints()) {
            all += e.registrationPs();
        }
        return all;
    }

    /**
     * The energy the network spent from the start to {@code elapsedPs}, with the power figures of
     * {@code profile} (see {@link NetworkEnergy}).
     */
    public Energy networkEnergy(Profile profile, long elapsedPs) {
        NetworkEnergy e = NetworkEnergy.of(cluster().network(), CostsFromProfile.power(profile), elapsedPs);
        return new Energy(e.nicJ(), e.routerJ(), e.nicPowerW(), e.routerPowerW());
    }

    /** Pinned bytes over all ranks. */
    public long pinnedBytes() {
        long n = 0;
        for (Endpoint e : layout.endpoints()) {
            n += policy.pinnedBytes(e);
        }
        return n;
    }
}
