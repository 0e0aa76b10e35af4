package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;

/**
 * Everything a workload declares about itself, written once, as SST's ELI blocks
 * ({@code SST_ELI_DOCUMENT_PARAMS}) and Caffeine's simulator settings declare a component: its
 * name and one line of description, its parameters with types, defaults, units and ranges, the
 * ranks and nodes it runs on, the segment each rank registers, the capabilities a policy must
 * offer, its metric columns and the one it is judged by. What depends on a point's values (a
 * process count, a segment sized by a parameter, a trace's operations) is a function of its
 * typed {@link Params}. The {@link Workload} methods that runners, specs and {@code info} call
 * are all derived from it.
 */
public final class WorkloadDescriptor {
    private final String name;
    private final String description;
    private final int ranks;
    private final ToIntFunction<Params> ranksOf;
    private final ToIntFunction<Params> nodesOf;
    private final boolean connectsRanks;
    private final List<WorkloadParameter> parameters;
    private final Map<String, WorkloadParameter> byName;
    private final Map<String, Map<String, Object>> keywords;
    private final List<Consumer<Params>> checks;
    private final ToLongFunction<Params> segment;
    private final Function<Params, Set<Capability>> requires;
    private final String mainMetric;
    private final boolean higherIsBetter;
    private final List<String> metrics;

    private WorkloadDescriptor(Builder b) {
        this.name = b.name;
        this.description = b.description;
        this.ranks = b.ranks;
        this.ranksOf = b.ranksOf;
        this.nodesOf = b.nodesOf;
        this.connectsRanks = b.connectsRanks;
        this.parameters = List.copyOf(b.parameters);
        this.byName = new LinkedHashMap<>();
        for (WorkloadParameter p : parameters) {
            if (byName.putIfAbsent(p.name(), p) != null) {
                throw new IllegalArgumentException("workload '" + name + "' declares parameter '" + p.name() + "' twice");
            }
        }
        this.keywords = Map.copyOf(b.keywords);
        for (String k : keywords.keySet()) {
            if (!byName.containsKey(k)) {
                throw new IllegalArgumentException("workload '" + name + "' has a keyword for undeclared parameter '" + k + "'");
            }
        }
        this.checks = List.copyOf(b.checks);
        this.segment = b.segment;
        this.requires = b.requires;
        this.mainMetric = Objects.requireNonNull(b.mainMetric, "workload '" + b.name + "' needs a main metric");
        this.higherIsBetter = b.higherIsBetter;
        this.metrics = b.metrics;
        if (!metrics.contains(mainMetric)) {
            throw new IllegalArgumentException("workload '" + name + "' is judged by '" + mainMetric
                    + "', which is not one of its metrics");
        }
    }

    /**
     * Starts the declaration of a workload.
     *
     * @param name        the command-line name
     * @param description one line saying what is measured
     */
    public static Builder of(String name, String description) {
        return new Builder(name, description);
    }

    /** The command-line name. */
    public String name() {
        return name;
    }

    /** One line saying what is measured. */
    public String description() {
        return description;
    }

    /** Ranks the workload needs when no parameter says otherwise. */
    public int ranks() {
        return ranks;
    }

    /** Ranks the workload needs for these values. */
    public int ranks(Params p) {
        return ranksOf == null ? ranks : ranksOf.applyAsInt(p);
    }

    /** Nodes the ranks run on for these values: one rank per node unless declared otherwise. */
    public int nodes(Params p) {
        return nodesOf == null ? ranks(p) : nodesOf.applyAsInt(p);
    }

    /** Whether the job connects every pair of ranks with RC queue pairs first. */
    public boolean connectsRanks() {
        return connectsRanks;
    }

    /** The declared parameters, in column order. */
    public List<WorkloadParameter> parameters() {
        return parameters;
    }

    /** The declared parameter called {@code name}, or {@code null}. */
    public WorkloadParameter parameter(String name) {
        return byName.get(name);
    }

    /** Every declared parameter name, in declaration order. */
    public List<String> parameterNames() {
        return List.copyOf(byName.keySet());
    }

    /** Segment bytes each rank registers for these values. */
    public long segmentBytes(Params p) {
        return segment.applyAsLong(p);
    }

    /** The capabilities a registration policy must offer to run these values. */
    public Set<Capability> requires(Params p) {
        return requires.apply(p);
    }

    /** The metric the workload is judged by. */
    public String mainMetric() {
        return mainMetric;
    }

    /** Whether a larger main metric is better. */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** The metric columns a point produces, units in the names. */
    public List<String> metrics() {
        return metrics;
    }

    /** Resolved values read with their declared types. */
    public Params values(Map<String, Object> resolved) {
        return new Params(this, resolved);
    }

    /**
     * One value of {@code p} as written, in its stored form: a keyword the workload accepts for
     * a number ({@code best}) becomes the number it stands for, anything else is checked
     * against the declaration.
     *
     * @throws IllegalArgumentException saying what would be valid
     */
    public Object coerce(WorkloadParameter p, Object value) {
        Map<String, Object> words = keywords.get(p.name());
        if (words == null) {
            return p.coerce(value);
        }
        if (value instanceof String s && words.containsKey(s.strip())) {
            return words.get(s.strip());
        }
        try {
            return p.coerce(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ", or " + String.join(", ", words.keySet()), e);
        }
    }

    /**
     * Checks given values against the declarations, fills in defaults and runs the checks
     * across parameters.
     *
     * @param given values by parameter name, as written
     * @return every declared parameter, in declaration order, with its stored value
     * @throws IllegalArgumentException naming the parameter and what would be valid, for an
     *                                  unknown name or a bad value
     */
    public Map<String, Object> resolve(Map<String, ?> given) {
        for (String key : given.keySet()) {
            if (!byName.containsKey(key)) {
                throw new IllegalArgumentException("workload '" + name + "' has no parameter '" + key
                        + "'; its parameters: " + String.join(", ", parameterNames()));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (WorkloadParameter p : parameters) {
            Object v = given.containsKey(p.name()) ? given.get(p.name()) : p.defaultValue();
            try {
                out.put(p.name(), coerce(p, v));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(p.name() + ": " + e.getMessage(), e);
            }
        }
        Params values = values(out);
        checks.forEach(c -> c.accept(values));
        return out;
    }

    /** How a workload declares itself; {@link #build} checks the declaration. */
    public static final class Builder {
        private final String name;
        private final String description;
        private int ranks = 2;
        private ToIntFunction<Params> ranksOf;
        private ToIntFunction<Params> nodesOf;
        private boolean connectsRanks = true;
        private final List<WorkloadParameter> parameters = new ArrayList<>();
        private final Map<String, Map<String, Object>> keywords = new LinkedHashMap<>();
        private final List<Consumer<Params>> checks = new ArrayList<>();
        private ToLongFunction<Params> segment;
        private Function<Params, Set<Capability>> requires = p -> Set.of();
        private String mainMetric;
        private boolean higherIsBetter;
        private List<String> metrics = PointRun.METRICS;

        private Builder(String name, String description) {
            this.name = Objects.requireNonNull(name, "name");
            this.description = Objects.requireNonNull(description, "description");
        }

        /** The ranks the workload needs (2 unless declared). */
        public Builder ranks(int count) {
            this.ranks = count;
            return this;
        }

        /** The ranks as a function of the values; {@link #ranks(int)} stays the count shown by {@code info}. */
        public Builder ranks(ToIntFunction<Params> count) {
            this.ranksOf = count;
            return this;
        }

        /** The nodes the ranks run on (rank {@code i} on node {@code i % nodes}); one per rank unless declared. */
        public Builder nodes(ToIntFunction<Params> count) {
            this.nodesOf = count;
            return this;
        }

        /** The workload carries its own traffic (datagrams): the job connects no queue pairs. */
        public Builder ownTraffic() {
            this.connectsRanks = false;
            return this;
        }

        /** The parameters, in column order. */
        public Builder parameters(List<WorkloadParameter> declared) {
            parameters.addAll(declared);
            return this;
        }

        /** The parameters, in column order. */
        public Builder parameters(WorkloadParameter... declared) {
            return parameters(List.of(declared));
        }

        /** A word a spec may write for a value of {@code parameter} ({@code best} for 0). */
        public Builder keyword(String parameter, String word, Object stored) {
            keywords.computeIfAbsent(parameter, k -> new LinkedHashMap<>()).put(word, stored);
            return this;
        }

        /**
         * A check across parameters that resolving runs after each value passed its own.
         *
         * @param check throws {@link IllegalArgumentException} naming the parameters and what would be valid
         */
        public Builder check(Consumer<Params> check) {
            checks.add(check);
            return this;
        }

        /** The segment bytes each rank registers, a fixed size. */
        public Builder segment(long bytes) {
            return segment(p -> bytes);
        }

        /** The segment bytes each rank registers, from the values. */
        public Builder segment(ToLongFunction<Params> bytes) {
            this.segment = bytes;
            return this;
        }

        /** The capabilities a policy must offer, whatever the values. */
        public Builder requires(Capability first, Capability... rest) {
            Set<Capability> caps = java.util.Collections.unmodifiableSet(EnumSet.of(first, rest));
            this.requires = p -> caps;
            return this;
        }

        /** The capabilities a policy must offer, from the values. */
        public Builder requires(Function<Params, Set<Capability>> caps) {
            this.requires = caps;
            return this;
        }

        /** The metric the workload is judged by, where a smaller value is better (a latency). */
        public Builder lowerIsBetter(String metric) {
            this.mainMetric = metric;
            this.higherIsBetter = false;
            return this;
        }

        /** The metric the workload is judged by, where a larger value is better (a rate). */
        public Builder higherIsBetter(String metric) {
            this.mainMetric = metric;
            this.higherIsBetter = true;
            return this;
        }

        /** The metric the workload is judged by, and whether a larger value is better. */
        public Builder judgedBy(String metric, boolean higherIsBetter) {
            this.mainMetric = metric;
            this.higherIsBetter = higherIsBetter;
            return this;
        }

        /** The metric columns, in row order ({@link PointRun#METRICS} unless declared). */
        public Builder metrics(List<String> columns) {
            this.metrics = List.copyOf(columns);
            return this;
        }

        /**
         * The declaration, checked. Without a declared segment, each rank registers one message of
         * {@code size_B}, at least a page.
         *
         * @throws IllegalArgumentException if the declaration contradicts itself
         */
        public WorkloadDescriptor build() {
            if (segment == null) {
                if (parameters.stream().noneMatch(p -> p.name().equals(StandardParameters.SIZE))) {
                    throw new IllegalArgumentException("workload '" + name + "' declares neither a segment size nor "
                            + StandardParameters.SIZE);
                }
                segment = p -> Math.max(StandardParameters.size(p), Kernel.PAGE_SIZE);
            }
            return new WorkloadDescriptor(this);
        }
    }
}
