package org.pagefabric.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options that change what a spec's grid runs: its quick set-up and overridden keys. */
final class GridOverrides {
    @Option(names = "--quick", description = "Smaller grids and repetitions, as each spec's quick section says.")
    boolean quick;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a grid key, seed or repetitions (repeatable).")
    List<String> sets = new ArrayList<>();
}
