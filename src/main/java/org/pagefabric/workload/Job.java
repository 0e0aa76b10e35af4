package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Simulator;

/**
 * A parallel job on a simulated cluster: one rank per node (or several, rank {@code i} on node
 * {@code i % nodes}), each with a communication segment
 * mapped and touched in its own address space, queue pairs connecting every pair of ranks, and
 * every rank prepared by the registration policy before the workload starts.
 */
public final class Job {
    private static final int CQ_DEPTH = 1 << 16;

    private final Cluster cluster;
    private final RegistrationPolicy policy;
    private final List<Rank> ranks = new ArrayList<>();
    private long setUpPs;

    /**
     * Builds the cluster and the ranks.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     */
    public Job(Simulator sim, Profile profile, int nodes, long segmentBytes, RegistrationPolicy policy) {
        this(sim, profile, nodes, nodes, segmentBytes, policy, true);
    }

    /**
     * Builds the cluster and one rank per node, connecting every pair of ranks with RC queue
     * pairs only if {@code connect} says so (n^2 queue pairs do not fit thousands of nodes).
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     */
    public Job(Simulator sim, Profile profile, int nodes, long segmentBytes, RegistrationPolicy policy,
               boolean connect) {
        this(sim, profile, nodes, nodes, segmentBytes, policy, connect);
    }

    /**
     * Builds the cluster and {@code rankCount} ranks on {@code nodes} nodes, rank {@code i} on node
     * {@code i % nodes} (so consecutive ranks sit on different nodes, as a round-robin launcher
     * places them), every pair connected.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     * @throws IllegalArgumentException if there are fewer ranks than nodes
     */
    public Job(Simulator sim, Profile profile, int nodes, int rankCount, long segmentBytes, RegistrationPolicy policy) {
        this(sim, profile, nodes, rankCount, segmentBytes, policy, true);
    }

    /**
     * Builds the cluster and {@code rankCount} ranks on {@code nodes} nodes, rank {@code i} on node
     * {@code i % nodes}, connecting every pair of ranks with RC queue pairs only if {@code connect}
     * says so.
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     * @throws IllegalArgumentException if there are fewer ranks than nodes
     */
    public Job(Simulator sim, Profile profile, int nodes, int rankCount, long segmentBytes, RegistrationPolicy policy,
               boolean connect) {
        if (rankCount < nodes) {
            throw new IllegalArgumentException(rankCount + " ranks cannot fill " + nodes + " nodes");
        }
        this.cluster = Cluster.build(sim, profile, nodes);
        this.policy = policy;
        long length = Math.ceilDiv(Math.max(segmentBytes, Rank.PAGE), Rank.PAGE) * Rank.PAGE;
        for (int i = 0; i < rankCount; i++) {
            Node node = cluster.node(i % nodes);
            // HPC nodes run with an unlimited memlock limit (CAP_IPC_LOCK-like), as MPI jobs do.
            AddressSpace as = node.kernel().createProcess(Long.MAX_VALUE, true);
            MapResult seg = node.kernel().mmap(as, 0, length, Prot.READ_WRITE, MapFlags.POPULATE);
            String base = node.name() + ".rank" + i;
            Rank r = new Rank(i, node, as, node.nic().allocatePd("rank" + i), new CompletionQueue(base + ".scq", CQ_DEPTH),
                    new CompletionQueue(base + ".rcq", CQ_DEPTH), rankCount, seg.address(), length);
            r.attach(policy);
            ranks.add(r);
        }
        for (int i = 0; connect && i < rankCount; i++) {
            for (int j = i + 1; j < rankCount; j++) {
                Rank a = ranks.get(i);
                Rank b = ranks.get(j);
                QueuePair qa = a.node().nic().createQp(a.pd(), QpType.RC, a.sendCq(), a.recvCq());
                QueuePair qb = b.node().nic().createQp(b.pd(), QpType.RC, b.sendCq(), b.recvCq());
                Nic.connect(qa, qb, cluster.transport());
                a.setQp(j, qa);
                b.setQp(i, qb);
            }
        }
        for (Rank r : ranks) {
            long ps = policy.setUp(r);
            r.chargePolicy(ps);
            setUpPs = Math.max(setUpPs, ps);
        }
        policy.start(this);
    }

    /** The cluster. */
    public Cluster cluster() {
        return cluster;
    }

    /** The simulator. */
    public Simulator simulator() {
        return cluster.simulator();
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

    /** Pinned bytes over all ranks. */
    public long pinnedBytes() {
        long n = 0;
        for (Rank r : ranks) {
            n += policy.pinnedBytes(r);
        }
        return n;
    }
}
