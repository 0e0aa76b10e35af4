package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;

/**
 * The application schemes that exist: every {@link SchemeProvider} on the class path, in the
 * order the service files list them. A scheme is known by its name and the workload that runs
 * it ({@code rma} is one scheme of the hashtable and another of the access counter); experiments
 * pair each scheme with the registration policies that meet its {@link RegistrationNeed} before
 * anything runs.
 */
public final class SchemeRegistry {
    private static final SchemeRegistry STANDARD = load(SchemeRegistry.class.getClassLoader());

    private final List<SchemeDescriptor> all;

    private SchemeRegistry(List<SchemeDescriptor> descriptors) {
        for (int i = 0; i < descriptors.size(); i++) {
            for (int j = 0; j < i; j++) {
                SchemeDescriptor a = descriptors.get(i);
                SchemeDescriptor b = descriptors.get(j);
                if (a.name().equals(b.name()) && a.workloads().stream().anyMatch(b::appliesTo)) {
                    throw new IllegalStateException("two schemes called '" + a.name() + "' apply to the same workload");
                }
            }
        }
        this.all = List.copyOf(descriptors);
    }

    /** The schemes of every provider the class loader finds. */
    public static SchemeRegistry load(ClassLoader loader) {
        List<SchemeDescriptor> all = new ArrayList<>();
        for (SchemeProvider p : ServiceLoader.load(SchemeProvider.class, loader)) {
            all.addAll(p.schemes());
        }
        return new SchemeRegistry(all);
    }

    /** A registry of exactly these schemes, for tests and embedding. */
    public static SchemeRegistry of(List<SchemeDescriptor> descriptors) {
        return new SchemeRegistry(descriptors);
    }

    /** The schemes on PageFabric's class path, loaded once. */
    public static SchemeRegistry standard() {
        return STANDARD;
    }

    /** Every scheme. */
    public List<SchemeDescriptor> all() {
        return all;
    }

    /** Every scheme name, once, in listing order. */
    public List<String> names() {
        Set<String> names = new LinkedHashSet<>();
        all.forEach(d -> names.add(d.name()));
        return List.copyOf(names);
    }

    /** The names of the schemes workload {@code workload} runs, in listing order; empty for a workload without. */
    public List<String> names(String workload) {
        List<String> names = new ArrayList<>();
        for (SchemeDescriptor d : all) {
            if (d.appliesTo(workload)) {
                names.add(d.name());
            }
        }
        return names;
    }

    /**
     * The scheme called {@code name} of workload {@code workload}.
     *
     * @throws IllegalArgumentException naming the workload's valid schemes if it has none of that name
     */
    public SchemeDescriptor descriptor(String name, String workload) {
        for (SchemeDescriptor d : all) {
            if (d.name().equals(name) && d.appliesTo(workload)) {
                return d;
            }
        }
        List<String> valid = names(workload);
        if (valid.isEmpty()) {
            throw new IllegalArgumentException("workload '" + workload + "' runs no scheme");
        }
        throw new IllegalArgumentException("unknown scheme '" + name + "' for workload '" + workload + "'; valid: "
                + String.join(", ", valid));
    }

    /** The policies of {@code policies} that meet the registration {@code scheme} needs, in listing order. */
    public static List<String> policiesFor(SchemeDescriptor scheme, PolicyRegistry policies) {
        List<String> names = new ArrayList<>();
        for (PolicyDescriptor p : policies.all()) {
            if (scheme.needs().metBy(p)) {
                names.add(p.name());
            }
        }
        return names;
    }

    /**
     * The scheme {@code name} of {@code workload}, checked against the registration policy it is
     * to run under.
     *
     * @throws IllegalArgumentException if the workload has no such scheme
     * @throws PolicyRefusal            naming the policies that would do if {@code policy} does not
     *                                  meet the scheme's need
     */
    public SchemeDescriptor forRun(String name, String workload, String policy) {
        SchemeDescriptor d = descriptor(name, workload);
        PolicyRegistry policies = PolicyRegistry.standard();
        if (!policies.contains(policy) || !d.needs().metBy(policies.descriptor(policy))) {
            throw new PolicyRefusal("scheme '" + name + "' needs " + d.needs().phrase() + ", not policy '" + policy
                    + "'; policies that have it: " + String.join(", ", policiesFor(d, policies)));
        }
        return d;
    }
}
