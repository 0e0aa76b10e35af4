package org.pagefabric.reg;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.Profile;

/**
 * One registration policy as the {@link PolicyRegistry} knows it: its name, what it does, its
 * capabilities, the profile parameters it reads, the statistics it publishes and how to build it.
 * A policy package declares these in its {@link PolicyProvider}, next to the code that uses them,
 * as a component's ELI block does in SST.
 *
 * @param name         the name on the command line and in results
 * @param description  one line saying what the policy does
 * @param capabilities what it carries and what it needs of the hardware
 * @param parameters   profile parameters whose values it reads
 * @param statistics   statistics it publishes
 * @param factory      builds a fresh instance for one job from a profile
 */
public record PolicyDescriptor(String name, String description, Set<Capability> capabilities,
                               List<Parameter> parameters, List<Statistic> statistics,
                               Function<Profile, RegistrationPolicy> factory) {
    /** Checks the fields and takes immutable copies. */
    public PolicyDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(factory, "factory");
        capabilities = Set.copyOf(capabilities);
        parameters = List.copyOf(parameters);
        statistics = List.copyOf(statistics);
    }

    /**
     * Why the policy cannot run a workload that needs {@code needed} on hardware described by
     * {@code profile}, or {@code null} if it can.
     */
    public String refusal(Set<Capability> needed, Profile profile) {
        for (Capability c : Capability.values()) {
            if (needed.contains(c) && !c.isHardwareNeed() && !capabilities.contains(c)) {
                return name + " does not carry " + c.phrase();
            }
        }
        if (capabilities.contains(Capability.NEEDS_IOMMU) && !profile.flag(org.pagefabric.hw.param.NicParameters.IOMMU)) {
            return name + " needs " + Capability.NEEDS_IOMMU.phrase() + "; profile " + profile.name() + " has none";
        }
        return null;
    }
}
