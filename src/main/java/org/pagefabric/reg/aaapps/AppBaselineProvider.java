package org.pagefabric.reg.aaapps;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;

/** The application baselines of 002: pin-all with an application scheme. */
public final class AppBaselineProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (AppBaseline b : AppBaseline.values()) {
            all.add(new PolicyDescriptor(b.policyName(), b.description(), Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE),
                    ParameterRegistry.matching("am.", "nic.", "cpu.poll_iteration", "memory.latency", "pcie.latency", "os.pin."), List.of(), p -> new AppBaselinePolicy(p, b)));
        }
        return all;
    }
}
