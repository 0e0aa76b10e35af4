package org.pagefabric.cli;

import java.util.regex.Pattern;

/**
 * Words written into generated job scripts so that they reach the program unchanged: shell
 * quoting for the script's commands, and Slurm's own quoting for {@code #SBATCH} lines, which
 * sbatch reads itself rather than through a shell.
 */
final class ShellWords {
    /** Characters that mean nothing to a shell, so a word made of them needs no quotes. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=,+@%-]+");

    private ShellWords() {
    }

    /** {@code word} as one shell word: unchanged when plain, otherwise in single quotes. */
    static String quote(String word) {
        if (!word.isEmpty() && PLAIN.matcher(word).matches()) {
            return word;
        }
        // a single quote cannot appear inside single quotes: close, escape it, reopen
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * {@code value} as the argument of an {@code #SBATCH} option: unchanged when plain, otherwise
     * in double quotes with a backslash before {@code "} and {@code \} (sbatch splits these
     * lines at blanks, takes single and double quotes as quoting, and a backslash as an escape).
     *
     * @throws IllegalArgumentException for a line break or other control character, which no
     *                                  {@code #SBATCH} line can carry
     */
    static String directive(String value) {
        if (!value.isEmpty() && PLAIN.matcher(value).matches()) {
            return value;
        }
        StringBuilder b = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException("a control character (code " + (int) c + ") in '"
                        + value.replaceAll("\\p{Cntrl}", "?") + "' cannot go into an #SBATCH line");
            }
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    /**
     * A Slurm file name pattern for file {@code pattern} (which may use {@code %a}, {@code %j} and
     * the like) in directory {@code dir}, escaped for an {@code #SBATCH} line: a {@code %} of the
     * directory is doubled, so that it stays a plain character.
     */
    static String directivePattern(String dir, String pattern) {
        return directive(dir.replace("%", "%%") + "/" + pattern);
    }
}
