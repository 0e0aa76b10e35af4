package org.pagefabric.reg.openmx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.hw.profile.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** Open-MX (003): pinning inside its own messaging stack. */
public final class OpenMxProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (PinMode m : PinMode.values()) {
            all.add(new PolicyDescriptor(m.policyName(), m.description(), Set.of(Capability.SEND_RECEIVE, Capability.OWN_MESSAGING),
                    ParameterRegistry.matching("openmx.", "os.pin.", "os.unpin.", "os.mmu_notifier."), List.of(
                new Statistic("<policy>.pinnedPages", "pages", "pages the driver pinned"),
                new Statistic("<policy>.unpinnedPages", "pages", "pages the driver unpinned"),
                new Statistic("<policy>.overlapMisses", "packets", "pull replies dropped because their target page was not pinned yet")),
                    p -> new OpenMxPolicy(p, m)));
        }
        return all;
    }
}
