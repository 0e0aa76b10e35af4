package org.pagefabric.workload.dht;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.pagefabric.active.ActiveAccessParameters;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.workload.RegistrationNeed;
import org.pagefabric.workload.SchemeDescriptor;
import org.pagefabric.workload.SchemeProvider;
import org.pagefabric.workload.rma.RmaCosts;

/**
 * The communication schemes of the distributed hashtable (002 §5.2): the baselines over memory
 * pinned as {@code pin-all} pins it, and active puts under any policy with an access log.
 */
public final class DhtSchemeProvider implements SchemeProvider {
    /** Policy the baselines run under: 002 §5.2 compares them over pinned memory. */
    private static final RegistrationNeed PINNED = RegistrationNeed.policy("pin-all");

    @Override
    public List<SchemeDescriptor> schemes() {
        List<Parameter> aa = new ArrayList<>(RmaCosts.PARAMETERS);
        aa.addAll(ParameterRegistry.of(List.of(ActiveAccessParameters.class), List.of()));
        return List.of(
                scheme("rma", "RMA hashtable (002 Listing 2): remote compare-and-swap and fetch-and-op on the target"
                        + " NIC, puts and flushes", PINNED, RmaCosts.PARAMETERS, RmaScheme::new),
                scheme("am", "active messages (002 §5.2): processes poll for messages every am.poll_interval and run"
                        + " the handlers", PINNED, RmaCosts.PARAMETERS, () -> new PollingAmScheme(false)),
                scheme("am-exp", "active messages with exponential back-off polling (002 §5.2): an empty poll doubles"
                        + " the interval up to am.backoff.max_interval", PINNED, RmaCosts.PARAMETERS,
                        () -> new PollingAmScheme(true)),
                scheme("am-onload", "active messages handled by C cores per node that only poll (002 §5.2,"
                        + " onload_cores); the other cores insert", PINNED, RmaCosts.PARAMETERS, OnloadAmScheme::new),
                scheme("am-ints", "active messages handled on NIC interrupts every am.interrupt.batch messages"
                        + " (002 §5.2)", PINNED, RmaCosts.PARAMETERS, InterruptAmScheme::new),
                scheme("aa", "active puts (002 §4.1, Listing 3): the target's IOMMU logs each put and the volume"
                        + " owner's handler inserts it; the policy's notification runs the handler",
                        RegistrationNeed.offering(Capability.ACCESS_LOG), aa, ActiveDhtScheme::new));
    }

    private static SchemeDescriptor scheme(String name, String description, RegistrationNeed needs,
                                           List<Parameter> parameters, Supplier<DhtScheme> factory) {
        return new SchemeDescriptor(name, description, Set.of(DhtInsertWorkload.NAME), needs, parameters, factory);
    }
}
