package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.ParameterFit;
import org.pagefabric.experiment.SpecReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric fit}: calibrates cost parameters no seed gives on published aggregates of one
 * experiment, one target each, and writes them into a profile whose sources name the target, so
 * that the comparison reports that number as a calibration target and every other one as
 * validation.
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Fit profile parameters to published numbers of an experiment (one target reference each).")
final class FitCommand implements Callable<Integer> {
    /** How every profile fit writes begins, so that a later fit may replace it and no other file. */
    static final String WRITTEN_BY = "# Written by pagefabric fit";
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "ID|FILE", description = "A bundled experiment id or a spec file.")
    String target;

    @Option(names = "--param", paramLabel = "NAME[=LO..HI]", required = true,
            description = "A profile parameter to fit and its range, e.g. odp.page_fault.base=10us..500us (repeatable;"
                    + " without a range: a decade either side of the profile's value).")
    List<String> params = new ArrayList<>();

    @Option(names = "--target", paramLabel = "REF_ID",
            description = "The id of the reference a parameter is fitted on, in --param order (repeatable).")
    List<String> targets = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a grid key or profile parameter in every run.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--max-evaluations", paramLabel = "N", defaultValue = "40",
            description = "The most experiment runs the search makes (default: ${DEFAULT-VALUE}).")
    int maxEvaluations;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads per run, 1 to the larger of 1024 and"
            + " 64 per processor; results do not depend on it.")
    Integer threads;

    @Option(names = "--out", paramLabel = "PROFILE",
            description = "Write the fitted values into this profile file (extends the experiment's profile).")
    Path out;

    @Override
    public Integer call() throws IOException {
        ExperimentSpec s;
        ParameterFit fit;
        try {
            s = target.endsWith(".yaml") || target.endsWith(".yml") ? SpecReader.read(Path.of(target))
                    : SpecReader.bundled(target);
            if (!s.runnable()) {
                throw new IllegalArgumentException(s.id() + ": not reproducible yet: " + String.join("; ", s.requires()));
            }
            if (maxEvaluations < 1) {
                throw new IllegalArgumentException("--max-evaluations must be positive, not " + maxEvaluations);
            }
            int t = WorkerThreads.count(threads);
            List<ParameterFit.FreeParameter> free = new ArrayList<>();
            for (String p : params) {
                free.add(ParameterFit.parse(p, s));
            }
            fit = new ParameterFit(s, free, targets, RunCommand.parseSets(sets), t);
            // the output last: a check creates the directories, and a refused command leaves none
            OutputPaths.file("--out", out, WRITTEN_BY);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int[] n = {0};
        ParameterFit.Evaluation best = fit.fit(maxEvaluations, e -> {
            err.println("fit: run " + (++n[0]) + ": " + describe(fit, e.values()) + " -> " + residuals(e));
            err.flush();
        });
        List<Map<String, Object>> table = new ArrayList<>();
        for (int i = 0; i < fit.parameters().size(); i++) {
            ParameterFit.FreeParameter p = fit.parameters().get(i);
            Map<String, Object> r = best.targets().get(i);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("parameter", p.name());
            row.put("fitted", p.text(best.values()[i]));
            row.put("target", s.id() + "#" + fit.targets().get(i).id());
            row.put("paper", r.get("paper"));
            row.put("ours", r.get("ours"));
            row.put("ratio", r.get("ratio"));
            row.put("verdict", r.get("verdict"));
            table.add(row);
        }
        o.print(RowFormat.leftTable(table, List.of("parameter", "fitted", "target", "paper", "ours", "ratio", "verdict")));
        o.flush();
        if (out != null) {
            org.pagefabric.experiment.WholeFile.write(out, profile(s, fit, best));
            try {
                ProfileRegistry.loadFile(out);
            } catch (RuntimeException e) {
                err.println("fit: the profile written to " + out + " does not load back: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
            err.println("fit: wrote " + out + "; use it with --profile " + out);
        }
        err.println("fit: " + n[0] + " runs; put the fitted values in the experiment's profile (" + s.profileRef()
                + "): every other published number of " + s.id() + " then validates them in pagefabric reproduce "
                + target);
        err.flush();
        return ExitCodes.OK;
    }

    private static String describe(ParameterFit fit, double[] values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            parts.add(fit.parameters().get(i).name() + " = " + fit.parameters().get(i).text(values[i]));
        }
        return String.join(", ", parts);
    }

    private static String residuals(ParameterFit.Evaluation e) {
        List<String> parts = new ArrayList<>();
        for (Map<String, Object> r : e.targets()) {
            parts.add("ours " + (r.get("ours") == null ? "none" : r.get("ours")) + " vs paper " + r.get("paper")
                    + (r.get("ratio") == null ? "" : " (ratio " + r.get("ratio") + ")"));
        }
        return String.join("; ", parts);
    }

    /** A profile extending the experiment's, with each fitted value and the fit that made it as its source. */
    private String profile(ExperimentSpec s, ParameterFit fit, ParameterFit.Evaluation best) {
        String name = out.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        StringBuilder b = new StringBuilder();
        b.append(WRITTEN_BY).append(": parameters calibrated on published numbers of ").append(s.id())
                .append(".\n# Every other published number of the experiment validates them.\n");
        b.append("name: ").append(name).append('\n');
        b.append("description: \"").append(s.profile().name()).append(" with parameters fitted on ").append(s.id())
                .append("\"\n");
        b.append("extends: ").append(s.profileRef()).append('\n');
        b.append("parameters:\n");
        String command = "pagefabric fit " + target + " " + String.join(" ", params.stream().map(p -> "--param " + p)
                .toList()) + (targets.isEmpty() ? "" : " " + String.join(" ", targets.stream().map(t -> "--target " + t)
                .toList()));
        for (int i = 0; i < fit.parameters().size(); i++) {
            ParameterFit.FreeParameter p = fit.parameters().get(i);
            String v = p.text(best.values()[i]);
            int sp = v.indexOf(' ');
            Map<String, Object> r = best.targets().get(i);
            b.append("  ").append(p.name()).append(": {value: ").append(sp < 0 ? v : v.substring(0, sp));
            if (sp >= 0) {
                b.append(", unit: ").append(v.substring(sp + 1));
            }
            b.append(", source: \"fitted: ").append(s.id()).append('#').append(fit.targets().get(i).id())
                    .append(" by ").append(command.replace("\"", "'")).append(" (ours ").append(r.get("ours"))
                    .append(", paper ").append(r.get("paper")).append(")\"}\n");
        }
        return b.toString();
    }
}
