package org.pagefabric.cli;

/**
 * Whether this process's standard error is a terminal. Java cannot ask about one stream, so the
 * launcher, which can ({@code [ -t 2 ]}), says it in {@code -Dpagefabric.stderr.terminal}; run
 * without the launcher, a process with no console (standard input or output redirected, as under
 * {@code nohup} or Slurm) counts as writing to a file.
 */
final class StandardError {
    /** The property the launcher sets to {@code true} or {@code false}. */
    static final String PROPERTY = "pagefabric.stderr.terminal";

    private StandardError() {
    }

    /** Whether standard error is a terminal, as far as this process can tell. */
    static boolean isTerminal() {
        String said = System.getProperty(PROPERTY);
        if (said != null) {
            return Boolean.parseBoolean(said);
        }
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }
}
