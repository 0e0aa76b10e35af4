package org.pagefabric.cli;

import java.io.PrintWriter;
import java.util.List;
import org.pagefabric.config.ProfileException;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.WriteFailedException;
import org.pagefabric.experiment.ProgressLog;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.ClockOverflowException;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code pagefabric} command line. */
@Command(name = "pagefabric", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
        description = "PageFabric: a deterministic simulator of how RDMA NICs reach application memory.",
        subcommands = {RunCommand.class, ReproduceCommand.class, CompareCommand.class, FitCommand.class,
                InfoCommand.class, CalibrateCommand.class, BenchCommand.class, MergeCommand.class, SlurmCommand.class,
                RecordCommand.class, SensitivityCommand.class},
        synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // No command given: name what there is, and fail like any other usage error.
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: one of "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** Builds the command line with PageFabric's error handling, without progress lines. */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * Builds the command line with PageFabric's error handling; with a clock, long commands
     * ({@code reproduce}) print progress lines on standard error read from it.
     */
    static CommandLine commandLine(ProgressLog.Clock progressClock) {
        CommandLine cl = new CommandLine(new Main());
        ((ReproduceCommand) cl.getSubcommands().get("reproduce").getCommand()).progressClock = progressClock;
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // Integer.valueOf reads any Unicode digit ('\u0668' as 8): a count on the command line is ASCII
        cl.registerConverter(Integer.class, Main::wholeInt);
        cl.registerConverter(Integer.TYPE, Main::wholeInt);
        cl.registerConverter(Long.class, Main::wholeNumber);
        cl.registerConverter(Long.TYPE, Main::wholeNumber);
        // JMH's options must reach it untouched and in order.
        cl.getSubcommands().get("bench").getSubcommands().get("jmh").setUnmatchedOptionsArePositionalParams(true);
        // picocli ignores an unmatched word when --help is given: a mistyped command would print the
        // general usage and exit 0, as if it had worked
        cl.setExecutionStrategy(parsed -> {
            String unknown = unknownCommand(parsed.commandSpec(), parsed.unmatched());
            if (unknown != null && parsed.subcommand() == null) {
                throw new CommandLine.ParameterException(parsed.commandSpec().commandLine(), unknown);
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            String unknown = ex instanceof CommandLine.UnmatchedArgumentException u && cmd.getParent() == null
                    ? unknownCommand(cmd.getCommandSpec(), u.getUnmatched()) : null;
            // One line naming what is wrong, then where to look: the usage text would bury the line.
            err.println(cmd.getCommandSpec().qualifiedName() + ": " + (unknown != null ? unknown + suggestion(ex)
                    : oneLine(ex) + suggestion(ex)));
            err.println(hint(cmd));
            err.flush();
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            // A policy that refuses the workload or the profile's hardware is the user's choice to
            // change, even when it surfaces from inside a simulated process: one line, exit 2.
            PolicyRefusal refusal = refusal(ex);
            // so is a run that asks for more simulated time than the clock holds
            ClockOverflowException overflow = causeOf(ex, ClockOverflowException.class);
            // and a profile value the hardware cannot take, found when a point builds its cluster
            ProfileException profile = causeOf(ex, ProfileException.class);
            // a full disk or an I/O error is the run's failure, not the user's input: exit 1
            WriteFailedException unwritten = causeOf(ex, WriteFailedException.class);
            if (unwritten != null) {
                err.println("pagefabric " + cmd.getCommandName() + ": error: " + oneLine(unwritten));
                err.flush();
                return ExitCodes.FAILURE;
            }
            String what = refusal != null ? oneLine(refusal)
                    : overflow != null ? pointOf(ex) + oneLine(overflow)
                    : profile != null ? pointOf(ex) + oneLine(profile) : oneLine(reason(ex));
            err.println("pagefabric " + cmd.getCommandName() + ": error: " + what);
            if (System.getenv("PAGEFABRIC_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            return ex instanceof IllegalArgumentException || refusal != null || overflow != null || profile != null
                    ? ExitCodes.USAGE : ExitCodes.FAILURE;
        });
        return cl;
    }

    /**
     * An option's whole number: an optional sign and ASCII digits, within {@code long}.
     *
     * @throws CommandLine.TypeConversionException otherwise, saying which
     */
    static long wholeNumber(String s) {
        if (!s.matches("[+-]?[0-9]+")) {
            throw new CommandLine.TypeConversionException("'" + s + "' is not a whole number (ASCII digits, e.g. 20)");
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is too large");
        }
    }

    /** {@link #wholeNumber} within {@code int}. */
    static int wholeInt(String s) {
        long n = wholeNumber(s);
        if (n != (int) n) {
            throw new CommandLine.TypeConversionException("'" + s + "' is too large (at most " + Integer.MAX_VALUE + ")");
        }
        return (int) n;
    }

    /**
     * "unknown command 'record'; valid: run, reproduce, ..." when the first word given to the top
     * command is neither an option nor a command; {@code null} otherwise.
     */
    private static String unknownCommand(CommandLine.Model.CommandSpec top, List<String> unmatched) {
        if (top.parent() != null || unmatched.isEmpty() || unmatched.getFirst().startsWith("-")) {
            return null;
        }
        return "unknown command '" + oneLine(unmatched.getFirst()) + "'; commands: "
                + String.join(", ", top.subcommands().keySet());
    }

    /** Where to read about {@code cmd}'s options: the line after every usage error. */
    static String hint(CommandLine cmd) {
        return "try '" + cmd.getCommandSpec().qualifiedName() + " --help'";
    }

    /** picocli's guesses for a mistyped option or command, as the end of the error line. */
    private static String suggestion(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            List<String> s = u.getSuggestions();
            if (!s.isEmpty()) {
                return " (did you mean " + String.join(" or ", s.subList(0, Math.min(3, s.size()))) + "?)";
            }
        }
        return "";
    }

    /** The policy refusal among {@code t} and its causes, or {@code null}. */
    private static PolicyRefusal refusal(Throwable t) {
        return causeOf(t, PolicyRefusal.class);
    }

    /** The first of {@code t} and its causes that is a {@code type}, or {@code null}. */
    private static <T extends Throwable> T causeOf(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /** "point N (its grid values): " when a point of a sweep failed, else nothing. */
    private static String pointOf(Throwable t) {
        ExperimentRunner.PointFailedException p = causeOf(t, ExperimentRunner.PointFailedException.class);
        return p == null ? "" : p.where() + ": ";
    }

    /**
     * What went wrong in {@code e}, readable on its own: a file system error's message is often
     * just the path, so its kind and reason are spelled out.
     */
    static String reason(Throwable e) {
        if (e instanceof java.nio.file.FileSystemException f) {
            String kind = f.getClass().getSimpleName().replace("Exception", "")
                    .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
            return f.getFile() + ": " + (f.getReason() != null ? f.getReason() : kind)
                    + (f.getOtherFile() != null ? " (" + f.getOtherFile() + ")" : "");
        }
        return oneLine(e);
    }

    private static String oneLine(Throwable t) {
        return oneLine(message(t));
    }

    /**
     * What {@code t} says, for a user: its message with each cause it quotes given by the cause's
     * own message. A model wraps a failure with the cause's {@code toString()} ("point 0 failed:
     * org.pagefabric.sim.SimulationException: rank 0: ..."), and a Java class name tells a user
     * nothing (PAGEFABRIC_DEBUG=1 prints the stack trace). Without any message, the class's short name.
     */
    static String message(Throwable t) {
        return message(t, 0);
    }

    private static String message(Throwable t, int depth) {
        String m = t.getMessage();
        Throwable c = t.getCause();
        // a cause chain may loop back on itself
        if (c == null || c == t || depth > 32) {
            return m != null ? m : t.getClass().getSimpleName();
        }
        String inner = message(c, depth + 1);
        if (m == null) {
            return inner;
        }
        String quoted = c.toString();
        return m.contains(quoted) ? m.replace(quoted, inner) : m;
    }

    /** A message may quote the user's input, line breaks and control characters included. */
    private static String oneLine(String m) {
        // format characters too: a right-to-left override would reorder the rest of the line on a terminal
        return m.replaceAll("\\R", " ").replaceAll("[\\p{Cntrl}\\p{Cf}]", "?");
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(commandLine(StandardError.isTerminal() ? null : ProgressLog.SYSTEM).execute(args));
    }
}
