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

    /** A core for a dedicated polling thread, counted down from the last. */
    int dedicatedCore() {
        int c = Math.max(0, nextDedicatedCore);
        nextDedicatedCore--;
        return c;
    }
}
