package org.pagefabric.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * A command whose issue has not landed: it says so in one line and exits 2, whatever its
 * arguments, and never prints made-up output.
 */
@Command
abstract class NotLandedCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Unmatched
    List<String> ignored;

    /** Which piece of work brings this command. */
    abstract String landsWith();

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("pagefabric " + spec.name() + ": not available yet; it lands with "
                + landsWith() + ".");
        return ExitCodes.USAGE;
    }
}
