package org.pagefabric.reg.active;

import java.util.IdentityHashMap;
import java.util.Map;
import org.pagefabric.active.ActiveAccess;
import org.pagefabric.active.ActiveCosts;
import org.pagefabric.active.ActiveDomain;
import org.pagefabric.active.ActiveNode;
import org.pagefabric.active.Notification;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.SegmentRegionKeys;

/**
 * Active Access (002): nothing is pinned; each rank's segment is one IOMMU-translated region
 * (the NIC reaches memory through the extended IOMMU over the process page table), and each
 * rank gets an {@link ActiveDomain} (an IUID and an access log in its address space) whose
 * handlers are notified by interrupt ({@code aa-int}), polling ({@code aa-poll}) or a
 * scratchpad-polling hyperthread ({@code aa-sp}). Workloads mark pages active through
 * {@link #domain(Endpoint)} and {@link ActiveDomain#assocPage}; applications reach those through
 * {@link #activeAccess()}.
 */
public final class ActiveAccessPolicy implements SegmentRegionKeys, ActiveAccess {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final Notification notification;
    private final ActiveCosts costs;
    private final Map<Node, ActiveNode> nodes = new IdentityHashMap<>();
    private final Map<Endpoint, ActiveDomain> domains = new IdentityHashMap<>();

    /** The policy with {@code notification}, costs from {@code profile}. */
    public ActiveAccessPolicy(Profile profile, Notification notification) {
        this.notification = notification;
        this.costs = ActiveCosts.of(profile);
    }

    @Override
    public String name() {
        return notification.policyName();
    }

    /** How handlers are notified. */
    @Override
    public Notification notification() {
        return notification;
    }

    @Override
    public long setUp(Endpoint rank) {
        Node node = rank.node();
        PolicyRefusal.unlessIommuPath(node, name(), "--profile aa-crayxe6");
        ActiveNode an = nodes.computeIfAbsent(node, n -> new ActiveNode(n, costs));
        if (node.iommu().bank(rank.pd().id()) == null) {
            SharedVirtualAddressing.bind(node.iommu(), rank.pd().id(), rank.process());
        }
        MemoryRegion mr = node.nic().registerVirtual(rank.pd(), rank.segment(), rank.segmentLength(), ACCESS);
        rank.setSegmentRegion(mr);
        domains.put(rank, new ActiveDomain(an, rank.process(), rank.pd().id(), notification, false));
        return 0;
    }

    @Override
    public ActiveDomain newDomain(Endpoint rank, boolean blockWrites) {
        if (!domains.containsKey(rank)) {
            throw new IllegalArgumentException("rank " + rank.id() + " was not set up by policy " + name());
        }
        return new ActiveDomain(activeNode(rank.node()), rank.process(), rank.pd().id(), notification, blockWrites);
    }

    /** The node's Active Access, once a rank on it was set up. */
    private ActiveNode activeNode(Node node) {
        ActiveNode an = nodes.get(node);
        if (an == null) {
            throw new IllegalArgumentException("no rank on " + node.name() + " was set up by policy " + name());
        }
        return an;
    }

    @Override
    public ActiveDomain domain(Endpoint rank) {
        ActiveDomain d = domains.get(rank);
        if (d == null) {
            throw new IllegalArgumentException("rank " + rank.id() + " was not set up by policy " + name());
        }
        return d;
    }

    @Override
    public ActiveAccess activeAccess() {
        return this;
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        return 0;
    }
}
