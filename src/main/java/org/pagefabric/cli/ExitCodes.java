package org.pagefabric.cli;

/** Process exit codes shared by every command. */
final class ExitCodes {
    /** Success. */
    static final int OK = 0;
    /**
     * A failed run, reported in one line: a bug, a row that did not come out as its spec expects,
     * or a result file that could not be written (a full disk).
     */
    static final int FAILURE = 1;
    /** Bad input or a command that is not available: the user can fix it. */
    static final int USAGE = 2;
    /**
     * The finished rows, plots and reports were written but some points never ran: the run was
     * stopped by a signal, or the merged shards include one that stopped early. Distinct from
     * success so that a script or a scheduler does not take a partial sweep for a whole one.
     */
    static final int INCOMPLETE = 3;

    private ExitCodes() {
    }
}
