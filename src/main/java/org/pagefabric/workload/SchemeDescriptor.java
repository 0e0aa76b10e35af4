package org.pagefabric.workload;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.pagefabric.config.Parameter;

/**
 * One application scheme as the {@link SchemeRegistry} knows it: how an application of 002 moves
 * or accounts its data (the hashtable's RMA, active messages or active puts; the applications'
 * counting and logging), the workloads it applies to, the registration it needs, the profile
 * parameters it reads, and how to build it. Declared by a {@link SchemeProvider} next to the
 * code that implements it.
 *
 * @param name         the name on the command line, in specs ({@code scheme:}) and in rows
 * @param description  one line saying what the scheme does
 * @param workloads    the workloads that run it, by name
 * @param needs        the registration policy it runs under
 * @param parameters   profile parameters whose values it reads
 * @param factory      builds what the workload runs: a fresh instance per run, or a constant
 */
public record SchemeDescriptor(String name, String description, Set<String> workloads, RegistrationNeed needs,
                               List<Parameter> parameters, Supplier<?> factory) {
    /** Checks the fields and takes immutable copies. */
    public SchemeDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(needs, "needs");
        Objects.requireNonNull(factory, "factory");
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("scheme " + name + " applies to no workload");
        }
        workloads = Set.copyOf(workloads);
        parameters = List.copyOf(parameters);
    }

    /** Whether workload {@code workload} runs this scheme. */
    public boolean appliesTo(String workload) {
        return workloads.contains(workload);
    }

    /**
     * What the workload runs, built by the factory, as the type the workload expects.
     *
     * @throws IllegalStateException if the provider declared a factory of another type
     */
    public <S> S create(Class<S> kind) {
        Object made = factory.get();
        if (!kind.isInstance(made)) {
            throw new IllegalStateException("scheme " + name + " builds a " + made.getClass().getName() + ", not the "
                    + kind.getSimpleName() + " its workloads run");
        }
        return kind.cast(made);
    }
}
