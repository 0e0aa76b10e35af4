package org.pagefabric.workload.trace;

/** A trace that cannot be read, with the file, line and field at fault in its one-line message. */
public final class TraceFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * {@code file:line: field 'f': problem}; without the field when {@code field} is null, without
     * the line when {@code line} is 0 (the file as a whole).
     */
    public TraceFormatException(String file, int line, String field, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + (field == null ? "" : "field '" + field + "': ") + problem);
    }
}
