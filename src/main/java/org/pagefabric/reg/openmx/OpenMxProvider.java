package org.pagefabric.reg.openmx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.OsParameters;
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
            List<Statistic> stats = new ArrayList<>(List.of(
                    new Statistic("<policy>.pinnedPages", "pages", "pages the driver pinned"),
                    new Statistic("<policy>.unpinnedPages", "pages", "pages the driver unpinned"),
                    new Statistic("<policy>.overlapMisses", "packets",
                            "pull replies dropped because their target page was not pinned yet (Overlap-Miss, 003 §4.3)"),
                    new Statistic("<policy>.unpinnedReplyReads", "packets",
                            "pull replies sent without data because their source pages were unpinned under them"),
                    new Statistic("<policy>.packetsReceived", "packets", "Open-MX packets the receiving bottom halves accepted"),
                    new Statistic("<policy>.invalidations", "regions", "cached regions unpinned by an MMU-notifier invalidation"),
                    new Statistic("<policy>.pressureUnpins", "regions",
                            "idle cached regions unpinned because pinning failed for lack of memory"),
                    new Statistic("<policy>.handshakeRtt", "ps",
                            "rendezvous handshake: from the RNDV leaving the sender's driver to the PULL acted on there (003 §3.3)")));
            if (m == PinMode.CACHE) {
                stats.add(new Statistic("<policy>.hits", "lookups", "region cache lookups that found the region declared"));
                stats.add(new Statistic("<policy>.misses", "lookups", "region cache lookups that declared a new region"));
            }
            all.add(new PolicyDescriptor(m.policyName(), m.description(),
                    Set.of(Capability.PAGED_OUT_MEMORY, Capability.SEND_RECEIVE, Capability.OWN_MESSAGING, Capability.INTERRUPT_PLACEMENT),
                    ParameterRegistry.of(declaringClasses(), List.of(OsParameters.PIN_BASE,
                            OsParameters.PIN_PER_PAGE, OsParameters.UNPIN_BASE, OsParameters.UNPIN_PER_PAGE,
                            OsParameters.MMU_NOTIFIER_INVALIDATE)), stats,
                    p -> new OpenMxPolicy(p, m)));
        }
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(OpenMxParameters.class);
    }
}
