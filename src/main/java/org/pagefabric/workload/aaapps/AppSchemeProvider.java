package org.pagefabric.workload.aaapps;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.active.ActiveAccessParameters;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.workload.RegistrationNeed;
import org.pagefabric.workload.SchemeDescriptor;
import org.pagefabric.workload.SchemeProvider;
import org.pagefabric.workload.rma.RmaCosts;

/**
 * How the Active Access applications (002 §5.2.2-§5.2.5) count or log what remote processes do
 * to a process's memory: Active Access under any policy with an access log, and the baselines
 * over memory pinned as {@code pin-all} pins it.
 */
public final class AppSchemeProvider implements SchemeProvider {
    private static final RegistrationNeed PINNED = RegistrationNeed.policy("pin-all");
    private static final Set<String> ALL = Set.of(AccessCounterWorkload.NAME, LoggedGetsWorkload.NAME,
            CoralSortWorkload.NAME);
    private static final Set<String> LOGGING = Set.of(LoggedGetsWorkload.NAME, CoralSortWorkload.NAME);
    private static final Set<String> COUNTING = Set.of(AccessCounterWorkload.NAME);

    @Override
    public List<SchemeDescriptor> schemes() {
        List<Parameter> aa = new ArrayList<>(RmaCosts.PARAMETERS);
        aa.addAll(ParameterRegistry.of(List.of(ActiveAccessParameters.class), List.of()));
        return List.of(
                new SchemeDescriptor("aa", "Active Access: the target's IOMMU logs each counted put's metadata or"
                        + " each logged get's data, and a handler consumes the log as the policy notifies it",
                        ALL, RegistrationNeed.offering(Capability.ACCESS_LOG), aa, () -> AppScheme.ACTIVE),
                new SchemeDescriptor("rma", "traditional RMA: a remote fetch-and-add on the page's counter, or the"
                        + " source puts a get's data back to the target to be logged", ALL, PINNED,
                        RmaCosts.PARAMETERS, () -> AppScheme.RMA),
                new SchemeDescriptor("am", "active messages: the source sends a get's data back in a message the"
                        + " target handles when it polls (002 §5.2.3-§5.2.4)", LOGGING, PINNED, RmaCosts.PARAMETERS,
                        () -> AppScheme.AM),
                new SchemeDescriptor("akv", "access counter in an active key-value store (002 §5.2.2 A-KV,"
                        + " Comet-like): each access is a message the target process handles when it polls, counting"
                        + " it", COUNTING, PINNED, RmaCosts.PARAMETERS, () -> AppScheme.AKV),
                new SchemeDescriptor("allreduce", "accesses counted at the source and summed with an Allreduce at the"
                        + " end (002 §5.2.2)", COUNTING, PINNED, RmaCosts.PARAMETERS, () -> AppScheme.ALLREDUCE),
                new SchemeDescriptor("no-count", "the access counter's baseline without counting (002 §5.2.2"
                        + " No-Cnt)", COUNTING, PINNED, RmaCosts.PARAMETERS, () -> AppScheme.NONE),
                new SchemeDescriptor("no-ft", "gets without logging, no fault tolerance (002 §5.2.3-§5.2.4 No-FT)",
                        LOGGING, PINNED, RmaCosts.PARAMETERS, () -> AppScheme.NONE));
    }
}
