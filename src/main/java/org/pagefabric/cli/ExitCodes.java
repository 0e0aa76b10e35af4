package org.pagefabric.cli;

/** Process exit codes shared by every command. */
final class ExitCodes {
    /** Success. */
    static final int OK = 0;
    /** An internal failure: a bug or a failed simulation, reported in one line. */
    static final int FAILURE = 1;
    /** Bad input or a command that is not available: the user can fix it. */
    static final int USAGE = 2;

    private ExitCodes() {
    }
}
