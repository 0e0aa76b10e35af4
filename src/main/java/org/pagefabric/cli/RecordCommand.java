package org.pagefabric.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.pagefabric.record.InterposerLibrary;
import org.pagefabric.record.MpiRecorder;
import org.pagefabric.record.RecordingRefused;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code pagefabric record --out FILE -- mpirun -n 4 ./app ARGS}: runs a real MPI program with the
 * recorder preloaded into its ranks and writes one trace of what they did (docs/TRACES.md).
 */
@Command(name = "record", mixinStandardHelpOptions = true,
        description = "Record a real MPI program (built against this machine's Open MPI): its MPI calls and memory "
                + "calls, per rank, into one trace that `run trace` and `compare trace` replay.")
final class RecordCommand implements Callable<Integer> {
    private static final String EXAMPLE = "pagefabric record --out t.jsonl -- mpirun -n 4 ./app";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", required = true,
            description = "The trace to write (JSON Lines); written whole or not at all.")
    Path out;

    @Parameters(paramLabel = "COMMAND", arity = "1..*",
            description = "After --: the command that runs the program, e.g. mpirun -n 4 ./app ARGS (as root and "
                    + "with more ranks than cores, the recorder allows both).")
    List<String> command;

    /** Options of the program's command given without --, which picocli would take for record's own. */
    @CommandLine.Unmatched
    List<String> unmatched;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (unmatched != null && !unmatched.isEmpty()) {
            return refuse(err, "unknown option '" + unmatched.getFirst() + "': put the program after --, e.g. "
                    + EXAMPLE);
        }
        try {
            MpiRecorder.Result r = MpiRecorder.record(command, out, InterposerLibrary.defaultCache());
            spec.commandLine().getOut().println("recorded " + r.ranks() + " ranks: " + r.records() + " records, "
                    + r.calls() + " MPI calls, in " + out);
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        } catch (RecordingRefused e) {
            return refuse(err, e.getMessage());
        } catch (OutOfMemoryError e) {
            err.println("pagefabric record: out of memory while merging the ranks' logs; give Java more with"
                    + " PAGEFABRIC_JAVA_OPTS=-Xmx8g; no trace written");
            err.flush();
            return ExitCodes.FAILURE;
        } catch (RuntimeException | StackOverflowError e) {
            // a fault of the recorder, not of the program: one line, the details only when asked for
            String m = e.getMessage();
            err.println("pagefabric record: error: the recording failed" + (m == null || m.isBlank() ? ""
                    : ": " + m.replaceAll("\\R", " ")) + "; no trace written (PAGEFABRIC_DEBUG=1 shows where)");
            if (System.getenv("PAGEFABRIC_DEBUG") != null) {
                e.printStackTrace(err);
            }
            err.flush();
            return ExitCodes.FAILURE;
        }
    }

    private static int refuse(PrintWriter err, String message) {
        err.println("pagefabric record: " + message);
        err.flush();
        return ExitCodes.USAGE;
    }
}
