package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The workloads that exist, by name: every {@link WorkloadProvider} on the class path, in the
 * order the service files list them.
 */
public final class WorkloadRegistry {
    private static final WorkloadRegistry STANDARD = load(WorkloadRegistry.class.getClassLoader());

    private final Map<String, Workload> byName = new LinkedHashMap<>();

    private WorkloadRegistry(List<Workload> workloads) {
        for (Workload w : workloads) {
            if (byName.putIfAbsent(w.name(), w) != null) {
                throw new IllegalStateException("two workloads are called '" + w.name() + "'");
            }
        }
    }

    /** The workloads of every provider the class loader finds. */
    public static WorkloadRegistry load(ClassLoader loader) {
        List<Workload> all = new java.util.ArrayList<>();
        for (WorkloadProvider p : bundledFirst(ServiceLoader.load(WorkloadProvider.class, loader))) {
            all.addAll(p.workloads());
        }
        return new WorkloadRegistry(all);
    }

    /** The workloads on PageFabric's class path, loaded once. */
    public static WorkloadRegistry standard() {
        return STANDARD;
    }

    /** The workload called {@code name}; the error lists the valid names. */
    public Workload byName(String name) {
        Workload w = byName.get(name);
        if (w == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; valid: " + String.join(", ", names()));
        }
        return w;
    }

    /** Every workload name. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** Every workload. */
    public List<Workload> all() {
        return List.copyOf(byName.values());
    }

    /**
     * The providers, PageFabric's own first (in service-file order), then those of other jars:
     * listings and comparisons keep their order whatever a user adds to the class path.
     */
    private static List<WorkloadProvider> bundledFirst(ServiceLoader<WorkloadProvider> loader) {
        java.security.CodeSource ours = WorkloadRegistry.class.getProtectionDomain().getCodeSource();
        List<WorkloadProvider> own = new java.util.ArrayList<>();
        List<WorkloadProvider> others = new java.util.ArrayList<>();
        for (WorkloadProvider p : loader) {
            java.security.CodeSource theirs = p.getClass().getProtectionDomain().getCodeSource();
            (ours != null && theirs != null && ours.getLocation().equals(theirs.getLocation()) ? own : others).add(p);
        }
        own.addAll(others);
        return own;
    }
}
