package org.pagefabric.cli;

import picocli.CommandLine.Option;

/** The {@code --format} option of the commands that print rows: how they print them. */
final class FormatOption {
    @Option(names = "--format", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    RunCommand.Format format;
}
