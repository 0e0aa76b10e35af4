package org.pagefabric.active;

import org.pagefabric.hw.iommu.aa.ActiveAccessUnit;
import org.pagefabric.hw.node.Node;

/**
 * Active Access on one node: the IOMMU extension installed on the NIC's IOMMU path, and the
 * domains (processes) that use it. The next free core for a dedicated polling thread or
 * hyperthread is handed out from the last core down, away from the ranks' own cores.
 */
public final class ActiveNode {
    private final Node node;
    private final ActiveCosts costs;
    private final ActiveAccessUnit unit;
    private int nextDedicatedCore;
    private java.util.function.Consumer<ActiveDomain> afterDrain;

    /**
     * @throws IllegalStateException if the node's NIC does not reach memory through its IOMMU
     */
    public ActiveNode(Node node, ActiveCosts costs) {
        if (node.iommu() == null || node.nic().iommuPath() == null) {
            throw new IllegalStateException("Active Access needs a NIC that reaches memory through the IOMMU"
                    + " (profile parameter nic.iommu: true, as in --profile aa-crayxe6)");
        }
        this.node = node;
        this.costs = costs;
        this.unit = new ActiveAccessUnit(costs.tableEntries(), costs.tagEntries(), costs.flushEntries(),
                costs.maxAccessBytes(), costs.logAccessPs());
        node.nic().iommuPath().attachActiveAccess(unit);
        this.nextDedicatedCore = node.cpu().coreCount() - 1;
    }

    /** The node. */
    public Node node() {
        return node;
    }

    /** The IOMMU extension. */
    public ActiveAccessUnit unit() {
        return unit;
    }

    /** The costs. */
    public ActiveCosts costs() {
        return costs;
    }

    /**
     * A domain of this node drained its log: completes the IOMMU's active flushes whose entries
     * are all consumed, then tells the node's {@link ActiveChannel} (held-back packets may go
     * on, flush replies may leave).
     */
    void drained(ActiveDomain domain) {
        unit.completeFlushes(domain.log());
        if (afterDrain != null) {
            afterDrain.accept(domain);
        }
    }

    /** Sets who hears that a domain of this node drained its log (the node's channel). */
    void afterDrain(java.util.function.Consumer<ActiveDomain> listener) {
        this.afterDrain = listener;
    }

    /** A core for a dedicated polling thread, counted down from the last. */
    int dedicatedCore() {
        int c = Math.max(0, nextDedicatedCore);
        nextDedicatedCore--;
        return c;
    }
}
