package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.pagefabric.calibrate.Calibration;
import org.pagefabric.calibrate.CalibrationInterrupted;
import org.pagefabric.calibrate.CalibrationResult;
import org.pagefabric.calibrate.Measurement;
import org.pagefabric.calibrate.ProfileWriter;
import org.pagefabric.calibrate.Skipped;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code pagefabric calibrate}: measures this host's pinning, fault, madvise, mincore and
 * userfaultfd costs through the FFM API, prints them, and writes a profile that extends
 * {@code default} with them.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Measure this host's mlock, page-fault, madvise, mincore and userfaultfd costs and write "
                + "a profile with them (use it with run --profile FILE).")
final class CalibrateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE",
            description = "Profile to write (default: calibrated-HOSTNAME.yaml in the current directory).")
    Path out;

    @Option(names = "--repetitions", paramLabel = "N", defaultValue = "" + Calibration.DEFAULT_REPETITIONS,
            description = "Timed repetitions per quantity, after a warm-up of a fifth of them (default: ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--quick", description = "Smaller regions (128 pages instead of 1024): a first look in about a second.")
    boolean quick;

    @Override
    public Integer call() throws IOException {
        if (repetitions < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--repetitions: " + repetitions + " is not a positive number of runs");
        }
        try {
            // measured for seconds, then not written: the path is checked first
            OutputPaths.file("--out", out, org.pagefabric.calibrate.ProfileWriter.WRITTEN_BY);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CalibrationResult r;
        try {
            r = Calibration.run(Calibration.Options.of(repetitions, quick));
        } catch (CalibrationInterrupted e) {
            err.println("pagefabric calibrate: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        printTable(o, r);
        ProfileWriter.Plan plan = ProfileWriter.plan(r);
        Path file = out != null ? out : ProfileWriter.defaultFile(r.host());
        try {
            ProfileWriter.write(file, r, plan);
        } catch (IOException e) {
            err.println("pagefabric calibrate: --out " + file + ": cannot write the profile: " + Main.reason(e));
            err.flush();
            return ExitCodes.FAILURE;
        } catch (org.pagefabric.experiment.WriteFailedException e) {
            err.println("pagefabric calibrate: " + e.getMessage() + "; no profile was written");
            err.flush();
            return ExitCodes.FAILURE;
        }
        try {
            ProfileRegistry.loadFile(file);
        } catch (ProfileException e) {
            err.println("pagefabric calibrate: the profile written does not load: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        o.println();
        o.printf("wrote %s: %d parameters measured, the rest from %s%n", file, plan.written().size(),
                ProfileRegistry.ROOT);
        for (ProfileWriter.Omitted om : plan.omitted()) {
            o.println("  not written: " + om.parameter() + ": " + om.reason());
        }
        o.println("use it: pagefabric run latency --profile " + file);
        o.flush();
        return ExitCodes.OK;
    }

    private static void printTable(PrintWriter o, CalibrationResult r) {
        o.printf("host %s (%s, Linux %s), %s; RLIMIT_MEMLOCK %s; THP %s; %d runs per quantity%n",
                r.host().hostname(), r.host().cpu(), r.host().kernel(), r.host().date(), r.host().memlockText(),
                r.host().thpMode() == null ? "absent" : r.host().thpMode(), r.repetitions());
        if (!r.measurements().isEmpty()) {
            o.printf("%-12s %-50s %10s %10s %10s %10s %10s %-5s %5s%n", "probe", "quantity", "median", "p25", "p75",
                    "min", "max", "unit", "runs");
        }
        for (Measurement m : r.measurements()) {
            o.printf("%-12s %-50s %10s %10s %10s %10s %10s %-5s %5d%n", m.probe(), m.quantity(),
                    ProfileWriter.format(m.median(), m.unit()), ProfileWriter.format(m.p25(), m.unit()),
                    ProfileWriter.format(m.p75(), m.unit()), ProfileWriter.format(m.min(), m.unit()),
                    ProfileWriter.format(m.max(), m.unit()), m.unit(), m.runs());
        }
        for (String n : r.notes()) {
            o.println("note: " + n);
        }
        for (Skipped s : r.skipped()) {
            o.println("skipped " + s.probe() + " (" + s.what() + "): " + s.reason());
        }
    }
}
