package org.pagefabric.cli;

import java.nio.file.Files;
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
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", required = true,
            description = "The trace to write (JSON Lines); written whole or not at all.")
    Path out;

    @Parameters(paramLabel = "COMMAND", arity = "1..*",
            description = "After --: the command that runs the program, e.g. mpirun -n 4 ./app ARGS (as root and "
                    + "with more ranks than cores, the recorder allows both).")
    List<String> command;

    @Override
    public Integer call() {
        if (Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out: " + out + " is a directory; name the"
                    + " trace file to write");
        }
        try {
            MpiRecorder.Result r = MpiRecorder.record(command, out, InterposerLibrary.defaultCache());
            spec.commandLine().getOut().println("recorded " + r.ranks() + " ranks: " + r.records() + " records, "
                    + r.calls() + " MPI calls, in " + out);
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        } catch (RecordingRefused e) {
            spec.commandLine().getErr().println("pagefabric record: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return ExitCodes.USAGE;
        }
    }
}
