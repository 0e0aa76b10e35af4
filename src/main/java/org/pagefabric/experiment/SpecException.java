package org.pagefabric.experiment;

/**
 * An experiment spec that cannot be used: malformed YAML, an unknown field, workload, policy,
 * grid key, metric or plot axis, a bad value. The message is one line naming the file, the line
 * (and column when known), the field, and what would be valid, in the style of
 * {@link org.pagefabric.config.ProfileException}. It is an {@link IllegalArgumentException}
 * because the user's input is wrong: the command line turns it into exit code 2.
 */
public final class SpecException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String field;
    private final String problem;

    /**
     * @param file    the spec file (or bundled resource, or {@code --set}) at fault
     * @param line    1-based line, or 0 when the problem has no single place
     * @param field   the field at fault ({@code grid.size_B}, {@code plot.x}), or {@code null}
     * @param problem what is wrong and what would be valid
     */
    public SpecException(String file, int line, String field, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + (field != null ? field + ": " : "") + problem);
        this.file = file;
        this.line = line;
        this.field = field;
        this.problem = problem;
    }

    /** The spec file at fault. */
    public String file() {
        return file;
    }

    /** 1-based line of the problem, or 0. */
    public int line() {
        return line;
    }

    /** The field at fault, or {@code null}. */
    public String field() {
        return field;
    }

    /** What is wrong and what would be valid, without the place. */
    public String problem() {
        return problem;
    }
}
