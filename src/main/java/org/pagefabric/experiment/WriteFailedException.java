package org.pagefabric.experiment;

import java.nio.file.Path;

/**
 * A result file that could not be written (no space, an I/O error): a failure of the run, not
 * of its input, reported in one line that says what is missing.
 */
public final class WriteFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    /**
     * @param file   the file that was not written
     * @param reason why, in the operating system's words
     */
    public WriteFailedException(Path file, String reason) {
        this("cannot write " + file + ": " + reason, reason);
    }

    /**
     * @param message the whole line: what was not written and why
     * @param reason  why, in the operating system's words
     */
    public WriteFailedException(String message, String reason) {
        super(message);
        this.reason = reason;
    }

    /** Why the write failed, in the operating system's words ("no space left on device"). */
    public String reason() {
        return reason;
    }
}
