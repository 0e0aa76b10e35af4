package org.pagefabric.cli;

import java.io.PrintWriter;
import org.pagefabric.reg.PolicyRefusal;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code pagefabric} command line. */
@Command(name = "pagefabric", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = "PageFabric: a deterministic simulator of how RDMA NICs reach application memory.",
        subcommands = {RunCommand.class, ReproduceCommand.class, CompareCommand.class, FitCommand.class,
                InfoCommand.class, CalibrateCommand.class, BenchCommand.class, MergeCommand.class, SlurmCommand.class},
        synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // No command given: show what there is, and fail like any other usage error.
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command");
    }

    /** Builds the command line with PageFabric's error handling. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // JMH's options must reach it untouched and in order.
        cl.getSubcommands().get("bench").getSubcommands().get("jmh").setUnmatchedOptionsArePositionalParams(true);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            err.println(ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
            cmd.usage(err);
            err.flush();
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            // A policy that refuses the workload or the profile's hardware is the user's choice to
            // change, even when it surfaces from inside a simulated process: one line, exit 2.
            PolicyRefusal refusal = refusal(ex);
            err.println("pagefabric " + cmd.getCommandName() + ": error: "
                    + (refusal != null ? oneLine(refusal) : oneLine(ex)));
            if (System.getenv("PAGEFABRIC_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            return ex instanceof IllegalArgumentException || refusal != null ? ExitCodes.USAGE : ExitCodes.FAILURE;
        });
        return cl;
    }

    /** The policy refusal among {@code t} and its causes, or {@code null}. */
    private static PolicyRefusal refusal(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof PolicyRefusal r) {
                return r;
            }
        }
        return null;
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return (m == null ? t.getClass().getSimpleName() : m).replace('\n', ' ');
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
