package org.pagefabric.workload;

import java.util.Map;

/**
 * The resolved parameter values of one point, read with the type each parameter declares, in
 * the manner of SST's {@code Params::find<T>}: {@code p.intValue(PROCESSES)} instead of a cast of
 * a map entry. Reading a name the workload does not declare, or reading it as a type it does not
 * have, is a programming error and says which.
 */
public final class Params {
    private final WorkloadDescriptor descriptor;
    private final Map<String, Object> values;

    /**
     * @param descriptor the workload's declarations
     * @param values     resolved values by parameter name ({@link Workload#resolve})
     */
    Params(WorkloadDescriptor descriptor, Map<String, Object> values) {
        this.descriptor = descriptor;
        this.values = values;
    }

    /** A whole-number parameter. */
    public long longValue(String name) {
        return ((Number) value(name, WorkloadParameter.Type.INTEGER)).longValue();
    }

    /**
     * A whole-number parameter that an {@code int} holds.
     *
     * @throws ArithmeticException if the value does not fit an {@code int}
     */
    public int intValue(String name) {
        return Math.toIntExact(longValue(name));
    }

    /** A real-number parameter. */
    public double doubleValue(String name) {
        WorkloadParameter p = declared(name);
        WorkloadParameter.Type t = p.type() == WorkloadParameter.Type.DECIMAL_ABOVE_MIN
                ? WorkloadParameter.Type.DECIMAL_ABOVE_MIN : WorkloadParameter.Type.DECIMAL;
        return ((Number) value(name, t)).doubleValue();
    }

    /** A switch. */
    public boolean flag(String name) {
        return (Boolean) value(name, WorkloadParameter.Type.BOOLEAN);
    }

    /** A choice among names. */
    public String choice(String name) {
        return (String) value(name, WorkloadParameter.Type.CHOICE);
    }

    /** Whether the choice {@code name} is {@code value}. */
    public boolean is(String name, String value) {
        return choice(name).equals(value);
    }

    /** A file path; empty for none. */
    public String file(String name) {
        return (String) value(name, WorkloadParameter.Type.FILE);
    }

    /** The values as the runner holds them, by parameter name. */
    public Map<String, Object> asMap() {
        return values;
    }

    private WorkloadParameter declared(String name) {
        WorkloadParameter p = descriptor.parameter(name);
        if (p == null) {
            throw new IllegalStateException("workload '" + descriptor.name() + "' reads parameter '" + name
                    + "', which it does not declare; its parameters: " + String.join(", ", descriptor.parameterNames()));
        }
        return p;
    }

    private Object value(String name, WorkloadParameter.Type type) {
        WorkloadParameter p = declared(name);
        if (p.type() != type) {
            throw new IllegalStateException("workload '" + descriptor.name() + "' reads parameter '" + name + "' as "
                    + type.name().toLowerCase(java.util.Locale.ROOT) + " but declares it " + p.typeName());
        }
        Object v = values.get(name);
        if (v == null) {
            throw new IllegalStateException("parameter '" + name + "' of workload '" + descriptor.name()
                    + "' has no value; values reach a workload resolved (Workload.resolve)");
        }
        return v;
    }
}
