package org.pagefabric.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.pagefabric.bench.KernelBenchmark;
import org.pagefabric.bench.ProcessResumeBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code pagefabric bench ...}: the performance benchmarks behind docs/PERFORMANCE.md. */
@Command(name = "bench", description = "Measure the simulator's own speed.", mixinStandardHelpOptions = true,
        subcommands = {BenchCommand.Kernel.class, BenchCommand.ProcessResume.class, BenchCommand.Model.class, BenchCommand.Jmh.class,
            BenchCommand.Dht.class, BenchCommand.Part.class},
        synopsisSubcommandLabel = "TARGET")
final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing benchmark: choose one of " + String.join(", ", spec.subcommands().keySet()));
    }

    /** Output formats of the bench commands. */
    enum Format { table, json }

    @Command(name = "kernel", mixinStandardHelpOptions = true,
            description = "PHOLD hold model on the event kernel versus a PriorityQueue reference engine.")
    static final class Kernel extends Benchmark {
        @Option(names = "--in-flight", split = ",", paramLabel = "N",
                description = "Events in flight, comma separated (default: ${DEFAULT-VALUE}).",
                defaultValue = "4096,65536,1048576")
        List<Integer> inFlight;

        @Option(names = "--events", paramLabel = "N", defaultValue = "10000000",
                description = "Timed events per repetition and engine (default: ${DEFAULT-VALUE}).")
        long events;

        @Option(names = "--repetitions", paramLabel = "R", defaultValue = "3",
                description = "Timed repetitions; the median is reported (default: ${DEFAULT-VALUE}).")
        int repetitions;

        @Option(names = "--seed", defaultValue = "1", description = "Workload seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Override
        public Integer call() {
            for (int n : inFlight) {
                refuseIf(n <= 0, "--in-flight: " + n + " is not a positive number of events");
            }
            refuseIf(events <= 0 || repetitions <= 0, "--events and --repetitions must be positive");
            PrintWriter out = spec.commandLine().getOut();
            KernelBenchmark bench = new KernelBenchmark(events, repetitions, seed);
            List<KernelBenchmark.Result> results = new ArrayList<>();
            if (format == Format.table) {
                out.printf("%-10s %16s %16s %8s%n", "in_flight", "events/s", "reference/s", "ratio");
                out.flush();
            }
            for (int n : inFlight) {
                KernelBenchmark.Result r = bench.run(n);
                results.add(r);
                if (format == Format.table) {
                    out.printf("%-10d %,16.0f %,16.0f %7.2fx%n", r.inFlight(), r.eventsPerSecond(),
                            r.referenceEventsPerSecond(), r.ratio());
                    out.flush();
                }
            }
            if (format == Format.json) {
                List<String> objects = new ArrayList<>();
                for (KernelBenchmark.Result r : results) {
                    objects.add(String.format(java.util.Locale.ROOT,
                            "{\"in_flight\": %d, \"events_per_s\": %.0f, \"reference_events_per_s\": %.0f, "
                                    + "\"ratio\": %.3f, \"events\": %d, \"repetitions\": %d}",
                            r.inFlight(), r.eventsPerSecond(), r.referenceEventsPerSecond(), r.ratio(),
                            r.events(), r.repetitions()));
                }
                out.println("[\n  " + String.join(",\n  ", objects) + "\n]");
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "process", mixinStandardHelpOptions = true,
            description = "Cost of one suspend+resume of a process-style rank, kernel event included.")
    static final class ProcessResume extends Benchmark {
        @Option(names = "--impl", split = ",", defaultValue = "continuation,thread",
                description = "Implementations: continuation, thread (default: ${DEFAULT-VALUE}).")
        List<String> impls;

        @Option(names = "--processes", split = ",", defaultValue = "1,1000",
                description = "Live processes (default: ${DEFAULT-VALUE}).")
        List<Integer> processes;

        @Option(names = "--mode", split = ",", defaultValue = "sleep,await",
                description = "What a process waits on: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
        List<ProcessResumeBench.Mode> modes;

        @Option(names = "--resumes", defaultValue = "2000000",
                description = "Timed resumes per configuration; the thread implementation runs 1/100 of them "
                        + "(default: ${DEFAULT-VALUE}).")
        long resumes;

        @Option(names = "--repetitions", defaultValue = "3",
                description = "Timed repetitions; the median is reported (default: ${DEFAULT-VALUE}).")
        int repetitions;

        @Override
        public Integer call() {
            refuseIf(resumes <= 0 || repetitions <= 0 || processes.stream().anyMatch(p -> p <= 0),
                    "--resumes, --repetitions and --processes must be positive");
            for (String impl : impls) {
                try {
                    org.pagefabric.sim.process.ProcessImpl.parse(impl).requireAvailable();
                } catch (IllegalArgumentException | IllegalStateException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--impl: " + e.getMessage());
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            List<String> json = new ArrayList<>();
            if (format == Format.table) {
                out.printf("%-13s %9s %-6s %12s %14s%n", "impl", "processes", "mode", "resumes", "ns/resume");
            }
            for (String impl : impls) {
                for (int p : processes) {
                    for (ProcessResumeBench.Mode mode : modes) {
                        long n = impl.startsWith("thread") ? Math.max(p, resumes / 100) : resumes;
                        double[] ns = new double[repetitions];
                        long done = 0;
                        for (int r = 0; r < repetitions; r++) {
                            ProcessResumeBench.Result res = new ProcessResumeBench(p, mode).run(impl, n);
                            ns[r] = res.nsPerResume();
                            done = res.resumes();
                        }
                        java.util.Arrays.sort(ns);
                        double median = ns[repetitions / 2];
                        String m = mode.name().toLowerCase(java.util.Locale.ROOT);
                        if (format == Format.table) {
                            out.printf("%-13s %9d %-6s %,12d %14.1f%n", impl, p, m, done, median);
                            out.flush();
                        } else {
                            json.add(String.format(java.util.Locale.ROOT,
                                    "{\"impl\": \"%s\", \"processes\": %d, \"mode\": \"%s\", \"resumes\": %d, "
                                            + "\"ns_per_resume\": %.1f}", impl, p, m, done, median));
                        }
                    }
                }
            }
            if (format == Format.json) {
                out.println("[\n  " + String.join(",\n  ", json) + "\n]");
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "model", mixinStandardHelpOptions = true,
            description = "The simulated machine's speed and size against its performance targets (docs/PERFORMANCE.md).")
    static final class Model extends RowsBenchmark {
        @Option(names = "--profile", defaultValue = "default",
                description = "Hardware profile (default: ${DEFAULT-VALUE}).")
        String profile;

        @Option(names = "--writes", defaultValue = "2000",
                description = "1 MiB writes in the timed packet-rate run (default: ${DEFAULT-VALUE}).")
        int writes;

        @Option(names = "--nodes", defaultValue = "4096",
                description = "Nodes in the idle-cluster footprint check (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Override
        List<java.util.Map<String, Object>> rows() {
            refuseIf(writes <= 0 || nodes < 2, "--writes must be positive and --nodes at least 2");
            org.pagefabric.config.Profile p;
            try {
                p = org.pagefabric.config.ProfileRegistry.resolve(profile);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            List<java.util.Map<String, Object>> rows = new ArrayList<>();
            rows.add(org.pagefabric.bench.ModelBenchmark.packetRate(profile, writes));
            rows.addAll(org.pagefabric.bench.ModelBenchmark.addressSpace(p));
            rows.add(org.pagefabric.bench.ModelBenchmark.idleCluster(p, nodes));
            return rows;
        }

        @Override
        List<String> columns() {
            return List.of("check", "value", "unit", "target", "met");
        }
    }

    @Command(name = "jmh", description = "Run the JMH micro-benchmarks in this jar; arguments go to JMH (try -h, -l).")
    static final class Jmh implements Callable<Integer> {
        @CommandLine.Parameters(paramLabel = "JMH-ARGS", description = "Arguments for JMH, e.g. 'KernelHoldJmh -prof gc'.")
        List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            org.openjdk.jmh.Main.main(args.toArray(String[]::new));
            return ExitCodes.OK;
        }
    }

    @Command(name = "dht", mixinStandardHelpOptions = true,
            description = "The distributed hashtable (dht-insert) at growing rank counts: wall time, heap, events.")
    static final class Dht extends RowsBenchmark {
        @Option(names = "--ranks", split = ",", defaultValue = "32,256,2048,32768",
                description = "Process counts (default: ${DEFAULT-VALUE}).")
        List<Integer> ranks;

        @Option(names = "--per-node", defaultValue = "32", description = "Processes per node (default: ${DEFAULT-VALUE}).")
        int perNode;

        @Option(names = "--inserts", defaultValue = "10", description = "Inserts per process (default: ${DEFAULT-VALUE}).")
        long inserts;

        @Option(names = "--scheme", defaultValue = "rma", description = "Hashtable scheme (default: ${DEFAULT-VALUE}).")
        String scheme;

        @Option(names = "--policy", defaultValue = "pin-all",
                description = "Registration policy the scheme runs under (default: ${DEFAULT-VALUE}).")
        String policy;

        @Option(names = "--profile", defaultValue = "aa-crayxe6", description = "Hardware profile (default: ${DEFAULT-VALUE}).")
        String profile;

        @Option(names = "--seed", defaultValue = "1", description = "Master seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Override
        List<java.util.Map<String, Object>> rows() {
            refuseIf(perNode < 1 || inserts < 0 || ranks.stream().anyMatch(r -> r < 1),
                    "--ranks must be positive, --per-node at least 1 and --inserts not negative");
            List<java.util.Map<String, Object>> rows = new ArrayList<>();
            for (int r : ranks) {
                try {
                    rows.add(org.pagefabric.bench.DhtBenchmark.run(profile, scheme, policy, r, perNode, inserts, seed));
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
                }
            }
            return rows;
        }

        @Override
        List<String> columns() {
            return List.of("ranks", "nodes", "scheme", "policy", "inserts", "wall_s", "heap_MB", "live_MB", "max_heap_MB", "events",
                    "events_per_s", "alloc_B_per_event", "inserts_per_s", "verified");
        }
    }

    @Command(name = "part", mixinStandardHelpOptions = true,
            description = "PART's speed targets: one 1 MiB all-fault write, and part.fig11's sweep with 50 writes a point.")
    static final class Part extends RowsBenchmark {
        @Option(names = "--writes", defaultValue = "50",
                description = "Timed 1 MiB writes per sweep point (default: ${DEFAULT-VALUE}).")
        int writes;

        @Option(names = "--warm-up", defaultValue = "5",
                description = "Untimed 1 MiB all-fault points first, for the JIT (default: ${DEFAULT-VALUE}).")
        int warmUp;

        @Override
        List<java.util.Map<String, Object>> rows() {
            refuseIf(writes <= 0 || warmUp < 0, "--writes must be positive, --warm-up at least 0");
            return org.pagefabric.bench.PartBenchmark.run(writes, warmUp);
        }

        @Override
        List<String> columns() {
            return List.of("check", "wall", "cpu", "unit", "target", "met");
        }
    }

    /** A benchmark command: where it reports bad options, and the format it prints in. */
    abstract static class Benchmark implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--format", defaultValue = "table",
                description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
        Format format;

        /** Refuses the options, with {@code message} naming them, when {@code bad} holds. */
        void refuseIf(boolean bad, String message) {
            if (bad) {
                throw new CommandLine.ParameterException(spec.commandLine(), message);
            }
        }
    }

    /**
     * A benchmark that measures into rows: its options are checked in {@link #rows}, which throws
     * {@link CommandLine.ParameterException} for bad ones, and the rows print as a table or JSON.
     */
    abstract static class RowsBenchmark extends Benchmark {
        /** Runs the benchmark. */
        abstract List<java.util.Map<String, Object>> rows();

        /** The table's columns, in order. */
        abstract List<String> columns();

        @Override
        public final Integer call() {
            List<java.util.Map<String, Object>> rows = rows();
            PrintWriter out = spec.commandLine().getOut();
            out.print(format == Format.json ? RowFormat.json(rows) : RowFormat.table(rows, columns()));
            out.flush();
            return ExitCodes.OK;
        }
    }
}
