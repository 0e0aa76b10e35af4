package org.pagefabric.endpoint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.node.CostsFromProfile;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.sim.Simulator;

/**
 * Where a parallel job's processes live on a simulated cluster: one endpoint per rank (rank
 * {@code i} on node {@code i % nodes}), each with a communication segment mapped and touched in
 * its own address space, a protection domain, completion queues, and RC queue pairs connecting
 * every pair of endpoints. Registration and communication are built on top of it.
 */
public final class JobLayout {
    private static final int CQ_DEPTH = 1 << 16;

    private final Cluster cluster;
    private final List<Endpoint> endpoints = new ArrayList<>();
    /** The active messages the registration policy's parts share ({@link ActiveMessages#attach(JobLayout)}). */
    ActiveMessages policyMessages;

    /**
     * Builds the cluster and {@code rankCount} endpoints on {@code nodes} nodes, rank {@code i} on
     * node {@code i % nodes} (so consecutive ranks sit on different nodes, as a round-robin
     * launcher places them), connecting every pair with RC queue pairs only if {@code connect}
     * says so (n^2 queue pairs do not fit thousands of nodes).
     *
     * @param segmentBytes bytes of each rank's communication segment (rounded up to pages)
     * @throws IllegalArgumentException if there are fewer ranks than nodes
     */
    public JobLayout(Simulator sim, Profile profile, int nodes, int rankCount, long segmentBytes, boolean connect) {
        if (rankCount < nodes) {
            throw new IllegalArgumentException(rankCount + " ranks cannot fill " + nodes + " nodes");
        }
        this.cluster = Cluster.build(sim, profile, nodes);
        long length = Math.ceilDiv(Math.max(segmentBytes, Kernel.PAGE_SIZE), Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
        long memlockPages = CostsFromProfile.memlockLimitPages(profile);
        for (int i = 0; i < rankCount; i++) {
            Node node = cluster.node(i % nodes);
            // A rank holds no CAP_IPC_LOCK: what it pins counts against the profile's RLIMIT_MEMLOCK.
            AddressSpace as = node.kernel().createProcess(memlockPages, false);
            MapResult seg = node.kernel().mmap(as, 0, length, Prot.READ_WRITE, MapFlags.POPULATE);
            String base = node.name() + ".rank" + i;
            endpoints.add(new Endpoint(i, node, as, node.nic().allocatePd("rank" + i),
                    new CompletionQueue(base + ".scq", CQ_DEPTH), new CompletionQueue(base + ".rcq", CQ_DEPTH),
                    rankCount, seg.address(), length));
        }
        for (int i = 0; connect && i < rankCount; i++) {
            for (int j = i + 1; j < rankCount; j++) {
                Endpoint a = endpoints.get(i);
                Endpoint b = endpoints.get(j);
                QueuePair qa = a.node().nic().createQp(a.pd(), QpType.RC, a.sendCq(), a.recvCq());
                QueuePair qb = b.node().nic().createQp(b.pd(), QpType.RC, b.sendCq(), b.recvCq());
                Nic.connect(qa, qb, cluster.transport());
                a.setQp(j, qa);
                b.setQp(i, qb);
            }
        }
    }

    /** The cluster. */
    public Cluster cluster() {
        return cluster;
    }

    /** The simulator. */
    public Simulator simulator() {
        return cluster.simulator();
    }

    /** All endpoints, by rank. */
    public List<Endpoint> endpoints() {
        return Collections.unmodifiableList(endpoints);
    }

    /** The endpoint of rank {@code i}. */
    public Endpoint endpoint(int i) {
        return endpoints.get(i);
    }

    /** Ranks in the job. */
    public int size() {
        return endpoints.size();
    }
}
