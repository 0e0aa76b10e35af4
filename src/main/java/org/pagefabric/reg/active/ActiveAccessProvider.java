package org.pagefabric.reg.active;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.active.ActiveAccessParameters;
import org.pagefabric.active.Notification;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;

/** Active Access (002), one policy per way its handlers are notified. */
public final class ActiveAccessProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (Notification n : Notification.values()) {
            all.add(new PolicyDescriptor(n.policyName(), "Active Access (002): the extended IOMMU logs accesses to pages"
                    + " marked with assocPage into the process's access log; handlers run on the target's cores,"
                    + " notified by " + n.name().toLowerCase(java.util.Locale.ROOT), Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE, Capability.ACCESS_LOG, Capability.NEEDS_IOMMU),
                    ParameterRegistry.of(List.of(ActiveAccessParameters.class, IommuParameters.class),
                            List.of(CpuParameters.INTERRUPT)), List.of(), p -> new ActiveAccessPolicy(p, n)));
        }
        return all;
    }
}
