package org.pagefabric.reg.aaapps;

import org.pagefabric.workload.aaapps.AppScheme;

/** The baselines of the Active Access applications (002 §5.2.2-§5.2.4) that run over pinned memory. */
public enum AppBaseline {
    /** An active key-value store in the application layer. */
    AKV("akv", AppScheme.AKV, "access counter in an active key-value store (002 §5.2.2 A-KV, Comet-like): each access"
            + " is a message the target process handles when it polls, counting it; segment pinned as pin-all"),
    /** Counted at the source, summed with an Allreduce. */
    ALLREDUCE("allreduce", AppScheme.ALLREDUCE, "access counter counted at the source and summed with an Allreduce at"
            + " the end (002 §5.2.2); segment pinned as pin-all"),
    /** No counting. */
    NO_COUNT("no-count", AppScheme.NONE, "access counter baseline without counting (002 §5.2.2 No-Cnt); segment"
            + " pinned as pin-all"),
    /** No logging of gets. */
    NO_FT("no-ft", AppScheme.NONE, "gets without logging, no fault tolerance (002 §5.2.3-§5.2.4 No-FT); segment"
            + " pinned as pin-all");

    private final String policyName;
    private final AppScheme scheme;
    private final String description;

    AppBaseline(String policyName, AppScheme scheme, String description) {
        this.policyName = policyName;
        this.scheme = scheme;
        this.description = description;
    }

    /** The command-line name. */
    public String policyName() {
        return policyName;
    }

    /** The applications' scheme under this policy. */
    public AppScheme scheme() {
        return scheme;
    }

    /** One line saying what the policy does. */
    public String description() {
        return description;
    }
}
