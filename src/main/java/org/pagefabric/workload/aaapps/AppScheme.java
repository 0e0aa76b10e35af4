package org.pagefabric.workload.aaapps;

import java.util.List;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.active.ActiveAccessPolicy;

/**
 * How an Active Access application (002 §4.2-§4.4, §5.2.2-§5.2.5) counts or logs what remote
 * processes do to a process's memory: the scheme of 002's evaluation each policy stands for.
 */
public enum AppScheme {
    /** Active Access: the target's extended IOMMU logs the access (metadata, or a get's returned data). */
    ACTIVE,
    /** Traditional RMA: remote fetch-and-add on a counter, or the source puts a get's data back. */
    RMA,
    /** Active messages: the source sends a get's data back in a message the target handles when it polls. */
    AM,
    /** An active key-value store in the application layer (Comet-like): the target counts in a message handler. */
    AKV,
    /** Counted at the source, summed with an Allreduce at the end. */
    ALLREDUCE,
    /** Neither counting nor logging: the baseline (No-Cnt, No-FT). */
    NONE;

    /**
     * The scheme of {@code policy}: a policy that names its scheme ({@link AppSchemeProvider}),
     * any Active Access variant, or the hashtable baselines {@code rma} and {@code am}.
     *
     * @throws PolicyRefusal naming the valid policies if the policy has no scheme among {@code accepted}
     */
    public static AppScheme of(RegistrationPolicy policy, String workload, List<AppScheme> accepted,
                               List<String> validPolicies) {
        AppScheme s;
        if (policy instanceof AppSchemeProvider p) {
            s = p.appScheme();
        } else if (policy instanceof ActiveAccessPolicy) {
            s = ACTIVE;
        } else if (policy.name().equals("rma")) {
            s = RMA;
        } else if (policy.name().equals("am")) {
            s = AM;
        } else {
            s = null;
        }
        if (s == null || !accepted.contains(s) || !validPolicies.contains(policy.name())) {
            throw new PolicyRefusal("policy '" + policy.name() + "' has no " + workload + " scheme; " + workload
                    + " runs under: " + String.join(", ", validPolicies));
        }
        return s;
    }
}
