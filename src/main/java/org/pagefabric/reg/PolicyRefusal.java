package org.pagefabric.reg;

import org.pagefabric.hw.node.Node;

/**
 * A policy cannot carry this kind of operation (for example, gets through bounce buffers): the
 * combination of workload and policy is a user's choice to change, so the command line reports it
 * in one line with exit code 2, as it does any other invalid input.
 */
public class PolicyRefusal extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** A refusal whose message names the policy and what it cannot do. */
    public PolicyRefusal(String message) {
        super(message);
    }

    /**
     * Refuses {@code policy} on a node whose NIC does not reach memory through its IOMMU.
     *
     * @param example a profile (or setting) that gives the NIC that path, e.g. {@code --profile part-forth}
     * @throws PolicyRefusal if the node has no IOMMU or its NIC bypasses it
     */
    public static void unlessIommuPath(Node node, String policy, String example) {
        if (node.iommu() == null || node.nic().iommuPath() == null) {
            throw new PolicyRefusal("policy " + policy + " needs a NIC that reaches memory through the IOMMU"
                    + " (profile parameter nic.iommu: true, as in " + example + ")");
        }
    }
}
