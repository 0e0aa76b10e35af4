/**
 * A simulated cluster built from one cost profile: nodes (CPU, RAM, kernel, PCIe link, NIC,
 * optional IOMMU, transport endpoint) on a network whose topology the profile names.
 *
 * <p>{@link org.pagefabric.hw.node.CostsFromProfile} turns a profile into each layer's cost
 * record, so registration policies can build extra hardware from the same values;
 * {@link org.pagefabric.hw.node.Cluster#build} wires the nodes. Every number comes from the
 * profile: this package holds none.
 */
package org.pagefabric.hw.node;
