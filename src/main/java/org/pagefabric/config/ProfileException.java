package org.pagefabric.config;

/**
 * A profile that cannot be used: malformed YAML, an unknown parameter, a wrong unit, a bad number,
 * a missing source, an unknown or cyclic {@code extends}. The message is one line that names the
 * file, the line and column, the field, and what would be valid. It is an
 * {@link IllegalArgumentException} because it is the user's input that is wrong: the command line
 * turns it into exit code 2.
 */
public final class ProfileException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;
    private final String field;
    private final String problem;

    /**
     * @param file the profile file (or bundled resource) the problem is in
     * @param line 1-based line, or 0 when the problem has no single place
     * @param column 1-based column, or 0
     * @param field the field or parameter at fault, or {@code null} for the whole file
     * @param problem what is wrong and what would be valid
     */
    public ProfileException(String file, int line, int column, String field, String problem) {
        super(format(file, line, column, field, problem));
        this.file = file;
        this.line = line;
        this.column = column;
        this.field = field;
        this.problem = problem;
    }

    private static String format(String file, int line, int column, String field, String problem) {
        StringBuilder sb = new StringBuilder(file);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        sb.append(": ");
        if (field != null) {
            sb.append(field).append(": ");
        }
        return sb.append(problem).toString();
    }

    /** The profile file or bundled resource at fault. */
    public String file() {
        return file;
    }

    /** 1-based line of the problem, or 0. */
    public int line() {
        return line;
    }

    /** 1-based column of the problem, or 0. */
    public int column() {
        return column;
    }

    /** The field or parameter at fault, or {@code null}. */
    public String field() {
        return field;
    }

    /**
     * What is wrong and what would be valid, without the file, line and field: for callers that
     * report the problem at a place of their own (an experiment spec that overrides a parameter).
     */
    public String problem() {
        return problem;
    }
}
