package org.pagefabric.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.SchemeDescriptor;
import org.pagefabric.workload.SchemeRegistry;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadParameter;
import org.pagefabric.workload.WorkloadRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric info}: what exists, generated from the metadata the code itself uses (the
 * parameter registry, the bundled profiles, the policy and workload registries), so there is
 * no second list to keep in sync.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "What exists: profiles, policies, schemes, workloads, parameters, or one of them by NAME.")
final class InfoCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "WHAT",
            description = "profiles, policies, schemes, workloads, parameters, experiments, or a NAME (any of those).")
    String what;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String w = what == null ? "" : what;
        switch (w) {
            case "" -> overview(out);
            case "profiles" -> out.print(RowFormat.leftTable(profiles(), List.of("profile", "extends", "description")));
            case "policies" -> out.print(RowFormat.leftTable(policies(), List.of("policy", "description")));
            case "schemes" -> out.print(RowFormat.leftTable(schemes(), List.of("scheme", "workloads", "needs",
                    "description")));
            case "workloads" -> out.print(RowFormat.leftTable(workloads(), List.of("workload", "main_metric", "parameters",
                    "description")));
            case "parameters" -> out.print(RowFormat.leftTable(parameters(), List.of("parameter", "dimension", "default", "doc")));
            case "experiments" -> out.print(RowFormat.leftTable(experiments(), List.of("experiment", "reproduces", "status", "title")));
            default -> {
                if (!named(out, w)) {
                    List<String> close = new ArrayList<>(ParameterRegistry.closestNames(w, 3));
                    throw new CommandLine.ParameterException(spec.commandLine(), "nothing is called '" + w
                            + "'; try: profiles, policies, schemes, workloads, parameters"
                            + (close.isEmpty() ? "" : ", or " + String.join(", ", close)));
                }
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    private void overview(PrintWriter out) {
        out.println("profiles:   " + String.join(", ", ProfileRegistry.bundledNames()));
        out.println("policies:   " + String.join(", ", PolicyRegistry.standard().names()));
        out.println("schemes:    " + String.join(", ", SchemeRegistry.standard().names()));
        out.println("workloads:  " + String.join(", ", WorkloadRegistry.standard().names()));
        out.println("parameters: " + ParameterRegistry.all().size() + " (pagefabric info parameters)");
        long runnable = SpecReader.bundledIds().stream().filter(id -> SpecReader.bundled(id).runnable()).count();
        out.println("experiments: " + SpecReader.bundledIds().size() + ", " + runnable
                + " reproducible now (pagefabric info experiments)");
        out.println("Details: pagefabric info profiles|policies|schemes|workloads|parameters|experiments|NAME");
    }

    /** One row per item, in the items' order, each filled in by {@code fill}. */
    private static <T> List<Map<String, Object>> table(Iterable<T> items, BiConsumer<T, Map<String, Object>> fill) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (T item : items) {
            Map<String, Object> r = new LinkedHashMap<>();
            fill.accept(item, r);
            rows.add(r);
        }
        return rows;
    }

    private static List<Map<String, Object>> profiles() {
        return table(ProfileRegistry.bundledNames(), (name, r) -> {
            Profile p = ProfileRegistry.load(name);
            r.put("profile", name);
            List<String> chain = p.chain();
            r.put("extends", chain.size() > 1 ? String.join(" < ", chain.subList(1, chain.size())) : "-");
            r.put("description", p.description());
        });
    }

    private static List<Map<String, Object>> policies() {
        return table(PolicyRegistry.standard().names(), (name, r) -> {
            r.put("policy", name);
            r.put("description", PolicyRegistry.standard().descriptor(name).description());
        });
    }

    private static List<Map<String, Object>> schemes() {
        return table(SchemeRegistry.standard().all(), (d, r) -> {
            r.put("scheme", d.name());
            r.put("workloads", String.join(", ", WorkloadRegistry.standard().names().stream().filter(d::appliesTo).toList()));
            r.put("needs", d.needs().phrase());
            r.put("description", d.description());
        });
    }

    private static List<Map<String, Object>> workloads() {
        return table(WorkloadRegistry.standard().all(), (wl, r) -> {
            r.put("workload", wl.name());
            r.put("main_metric", wl.mainMetric());
            List<String> params = new ArrayList<>();
            for (WorkloadParameter wp : wl.parameters()) {
                params.add(wp.name() + " (" + wp.typeName() + ", " + defaultOf(wp) + ")");
            }
            r.put("parameters", String.join(", ", params));
            r.put("description", wl.description());
        });
    }

    private static String defaultOf(WorkloadParameter wp) {
        String v = String.valueOf(wp.defaultValue());
        return (v.isEmpty() ? "none" : v) + (wp.unit() == null || wp.unit().isEmpty() ? "" : " " + wp.unit());
    }

    /** What the descriptor derives from the default values: ranks, nodes, segment, capabilities. */
    private static void atDefaults(PrintWriter out, Workload wl) {
        Map<String, Object> values;
        try {
            values = wl.resolve(Map.of());
        } catch (IllegalArgumentException e) {
            // a workload whose defaults name nothing to run (a trace) has nothing to derive
            return;
        }
        out.println("at the defaults: " + wl.ranks(values) + " ranks on " + wl.nodes(values) + " nodes"
                + (wl.connectsRanks() ? "" : " (datagrams, no queue pairs)") + ", " + wl.segmentBytes(values)
                + " B of segment per rank, requires: " + (wl.requires(values).isEmpty() ? "nothing"
                : String.join(", ", wl.requires(values).stream().sorted().map(Enum::name).toList())));
    }

    private static List<Map<String, Object>> experiments() {
        return table(SpecReader.bundledIds(), (id, r) -> {
            ExperimentSpec e = SpecReader.bundled(id);
            r.put("experiment", id);
            r.put("reproduces", e.paper() != null ? "seed " + e.paper() + " " + e.where()
                    : e.designCheck() != null ? "beyond the seeds, design check" : "beyond the seeds");
            r.put("status", e.runnable() ? "reproducible" : "waits for: " + e.requires().get(0));
            r.put("title", e.title());
        });
    }

    private static List<Map<String, Object>> parameters() {
        Profile defaults = ProfileRegistry.load(ProfileRegistry.ROOT);
        return table(ParameterRegistry.all(), (p, r) -> {
            r.put("parameter", p.name());
            r.put("dimension", p.dimension().name().toLowerCase(java.util.Locale.ROOT));
            r.put("default", defaults.setting(p).written());
            r.put("doc", p.doc());
        });
    }

    /** A policy's or scheme's own parameters with their defaults in the root profile. */
    private static void ownParameters(PrintWriter out, List<Parameter> parameters) {
        Profile defaults = ProfileRegistry.load(ProfileRegistry.ROOT);
        List<Map<String, Object>> rows = table(parameters, (p, r) -> {
            r.put("parameter", p.name());
            r.put("default", defaults.setting(p).written());
            r.put("doc", p.doc());
        });
        out.println("its costs and settings (profile parameters; override with --set or a profile):");
        out.print(RowFormat.leftTable(rows, List.of("parameter", "default", "doc")));
    }

    /** Prints what is called {@code name}; false if nothing is. */
    private static boolean named(PrintWriter out, String name) {
        if (ProfileRegistry.bundledNames().contains(name)) {
            Profile p = ProfileRegistry.load(name);
            out.println(name + ": " + p.description());
            out.println("extends: " + String.join(" < ", p.chain()));
            List<Map<String, Object>> rows = table(p.settings(), (s, r) -> {
                r.put("parameter", s.parameter().name());
                r.put("value", s.written());
                r.put("from", s.profile());
                r.put("source", s.source());
            });
            out.print(RowFormat.leftTable(rows, List.of("parameter", "value", "from", "source")));
            return true;
        }
        if (PolicyRegistry.standard().names().contains(name)) {
            out.println(name + ": " + PolicyRegistry.standard().descriptor(name).description());
            ownParameters(out, PolicyRegistry.standard().descriptor(name).parameters());
            org.pagefabric.reg.PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
            List<String> caps = new ArrayList<>();
            for (org.pagefabric.reg.Capability c : org.pagefabric.reg.Capability.values()) {
                if (d.capabilities().contains(c)) {
                    caps.add(c.phrase());
                }
            }
            out.println("capabilities: " + String.join("; ", caps));
            if (!d.statistics().isEmpty()) {
                List<Map<String, Object>> stats = table(d.statistics(), (st, r) -> {
                    r.put("statistic", st.name());
                    r.put("unit", st.unit());
                    r.put("description", st.description());
                });
                out.println("statistics it publishes:");
                out.print(RowFormat.leftTable(stats, List.of("statistic", "unit", "description")));
            }
            return true;
        }
        if (SchemeRegistry.standard().names().contains(name)) {
            for (SchemeDescriptor d : SchemeRegistry.standard().all()) {
                if (!d.name().equals(name)) {
                    continue;
                }
                out.println(name + " (" + String.join(", ", WorkloadRegistry.standard().names().stream().filter(d::appliesTo).toList())
                        + "): " + d.description());
                out.println("needs: " + d.needs().phrase() + " ("
                        + String.join(", ", SchemeRegistry.policiesFor(d, PolicyRegistry.standard())) + ")");
                ownParameters(out, d.parameters());
            }
            return true;
        }
        if (WorkloadRegistry.standard().names().contains(name)) {
            Workload wl = WorkloadRegistry.standard().byName(name);
            out.println(name + ": " + wl.description());
            out.println("main metric: " + wl.mainMetric() + (wl.higherIsBetter() ? " (higher is better)" : " (lower is better)"));
            out.println("ranks: " + wl.ranks());
            atDefaults(out, wl);
            List<Map<String, Object>> rows = table(wl.parameters(), (wp, r) -> {
                r.put("parameter", wp.name());
                r.put("type", wp.typeName());
                r.put("default", defaultOf(wp));
                r.put("valid", wp.expected());
                r.put("doc", wp.doc());
            });
            out.print(RowFormat.leftTable(rows, List.of("parameter", "type", "default", "valid", "doc")));
            out.println("metrics: " + String.join(", ", wl.metrics()));
            return true;
        }
        if (SpecReader.bundledIds().contains(name)) {
            ExperimentSpec e = SpecReader.bundled(name);
            out.println(name + ": " + e.title());
            out.println(e.paper() == null ? "reproduces: no seed (beyond the seeds)" : "reproduces: seed " + e.paper() + ", " + e.where());
            if (e.designCheck() != null) {
                out.println(e.checks());
            }
            out.println("policies: " + String.join(", ", e.policies()));
            if (e.runnable()) {
                out.println("workload: " + e.workload().name() + "; profile: " + e.profile().name() + "; points: "
                        + org.pagefabric.experiment.Grid.expand(e).size() + " (quick: "
                        + org.pagefabric.experiment.Grid.expand(e.quickened()).size() + ")");
            } else {
                out.println("not reproducible yet: " + String.join("; ", e.requires()));
            }
            return true;
        }
        Optional<Parameter> param = ParameterRegistry.find(name);
        if (param.isPresent()) {
            Parameter p = param.get();
            out.println(p.name() + " (" + p.dimension().name().toLowerCase(java.util.Locale.ROOT) + "): " + p.doc());
            if (!p.choices().isEmpty()) {
                out.println("choices: " + String.join(", ", p.choices()));
            }
            List<Map<String, Object>> rows = table(ProfileRegistry.bundledNames(), (prof, r) -> {
                ResolvedSetting s = ProfileRegistry.load(prof).setting(p);
                r.put("profile", prof);
                r.put("value", s.written());
                r.put("set in", s.profile());
                r.put("source", s.source());
                org.pagefabric.config.PlausibleRange range = s.plausible();
                r.put("plausible", range == null ? "none (an input)" : range.text());
                r.put("why", range == null ? "" : range.basis() == org.pagefabric.config.PlausibleRange.Basis.STATED
                        ? range.reason() : "factor of two (rule)");
            });
            out.print(RowFormat.leftTable(rows, List.of("profile", "value", "set in", "source", "plausible", "why")));
            out.println("plausible: the values pagefabric sensitivity varies this parameter over; a profile states"
                    + " them with range: {low, high, reason}, else an assumed or fitted "
                    + String.join(", ", org.pagefabric.config.PlausibleRange.RULE_DIMENSIONS.stream()
                            .map(org.pagefabric.config.Dimension::label).toList())
                    + " value takes the general rule: " + org.pagefabric.config.PlausibleRange.RULE_REASON
                    + "; a seed's or measured value, a count or a size without a stated range is held fixed");
            return true;
        }
        return false;
    }
}
