package org.pagefabric.reg;

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
}
