package org.pagefabric.reg;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.pagefabric.config.Profile;

/**
 * The registration policies that exist, by name: every {@link PolicyProvider} on the class path,
 * in the order the service files list them. Commands, tests and workloads ask it which policies
 * can run a workload instead of trying each one and catching its refusal.
 */
public final class PolicyRegistry {
    /**
     * The policy a command runs when none is named: the baseline that pins every rank's segment
     * once, which every other policy is measured against.
     */
    public static final String DEFAULT = "pin-all";

    private static final PolicyRegistry STANDARD = load(PolicyRegistry.class.getClassLoader());

    private final Map<String, PolicyDescriptor> byName = new LinkedHashMap<>();

    private PolicyRegistry(List<PolicyDescriptor> descriptors) {
        for (PolicyDescriptor d : descriptors) {
            if (byName.putIfAbsent(d.name(), d) != null) {
                throw new IllegalStateException("two registration policies are called '" + d.name() + "'");
            }
        }
    }

    /** The policies of every provider the class loader finds. */
    public static PolicyRegistry load(ClassLoader loader) {
        List<PolicyDescriptor> all = new ArrayList<>();
        for (PolicyProvider p : bundledFirst(ServiceLoader.load(PolicyProvider.class, loader))) {
            all.addAll(p.policies());
        }
        return new PolicyRegistry(all);
    }

    /** A registry of exactly these policies, for tests and embedding. */
    public static PolicyRegistry of(List<PolicyDescriptor> descriptors) {
        return new PolicyRegistry(descriptors);
    }

    /** The policies on PageFabric's class path, loaded once. */
    public static PolicyRegistry standard() {
        return STANDARD;
    }

    /** Every policy name, in listing order. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** Every policy. */
    public List<PolicyDescriptor> all() {
        return List.copyOf(byName.values());
    }

    /**
     * The policy called {@code name}.
     *
     * @throws IllegalArgumentException naming the valid policies if there is none
     */
    public PolicyDescriptor descriptor(String name) {
        PolicyDescriptor d = byName.get(name);
        if (d == null) {
            throw new IllegalArgumentException("unknown policy '" + name + "'; valid: " + String.join(", ", names()));
        }
        return d;
    }

    /** Whether a policy is called {@code name}. */
    public boolean contains(String name) {
        return byName.containsKey(name);
    }

    /** A fresh instance of the policy called {@code name} with costs from {@code profile}. */
    public RegistrationPolicy create(String name, Profile profile) {
        return descriptor(name).factory().apply(profile);
    }

    /** The names of the policies that can run a workload needing {@code needed} on {@code profile}'s hardware. */
    public List<String> able(Set<Capability> needed, Profile profile) {
        List<String> out = new ArrayList<>();
        for (PolicyDescriptor d : byName.values()) {
            if (d.refusal(needed, profile) == null) {
                out.add(d.name());
            }
        }
        return out;
    }

    /**
     * The providers, PageFabric's own first (in service-file order), then those of other jars:
     * listings and comparisons keep their order whatever a user adds to the class path.
     */
    private static List<PolicyProvider> bundledFirst(ServiceLoader<PolicyProvider> loader) {
        java.security.CodeSource ours = PolicyRegistry.class.getProtectionDomain().getCodeSource();
        List<PolicyProvider> own = new java.util.ArrayList<>();
        List<PolicyProvider> others = new java.util.ArrayList<>();
        for (PolicyProvider p : loader) {
            java.security.CodeSource theirs = p.getClass().getProtectionDomain().getCodeSource();
            (ours != null && theirs != null && ours.getLocation().equals(theirs.getLocation()) ? own : others).add(p);
        }
        own.addAll(others);
        return own;
    }
}
