package org.pagefabric.reg.am;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;

/** The hashtable baselines of 002: pin-all with a hashtable scheme. */
public final class DhtBaselineProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (DhtBaseline b : DhtBaseline.values()) {
            all.add(new PolicyDescriptor(b.policyName(), b.description(), Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE),
                    ParameterRegistry.matching("am.", "nic.", "cpu.poll_iteration", "cpu.interrupt", "memory.latency", "pcie.latency", "os.pin."), List.of(), p -> new DhtBaselinePolicy(p, b)));
        }
        return all;
    }
}
