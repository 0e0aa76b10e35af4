package org.pagefabric.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One command of a {@code sh} block in the documentation, split into words as a POSIX shell
 * would for the simple lines documents hold: backslash-newline continuations, single and double
 * quotes, a {@code #} comment from the start of a word to the end of the line, and leading
 * {@code NAME=value} environment assignments.
 *
 * @param line          1-based line in the document where the command starts
 * @param text          the command as written, continuations joined
 * @param environment   leading {@code NAME=value} assignments
 * @param words         the command and its arguments
 * @param expectedExit  the exit code the comment documents ({@code # exits 1: ...}), 0 otherwise
 */
record ShellCommand(int line, String text, List<String> environment, List<String> words, int expectedExit) {
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");
    private static final Pattern EXIT = Pattern.compile("^exits?\\s+(\\d+)\\b.*");

    /** The commands of a block whose first line is line {@code firstLine} of its document. */
    static List<ShellCommand> parse(List<String> body, int firstLine) {
        List<ShellCommand> commands = new ArrayList<>();
        StringBuilder joined = new StringBuilder();
        int start = -1;
        for (int i = 0; i < body.size(); i++) {
            String l = body.get(i);
            if (start < 0) {
                start = firstLine + i;
            }
            if (l.endsWith("\\")) {
                joined.append(l, 0, l.length() - 1).append(' ');
                continue;
            }
            joined.append(l);
            ShellCommand c = of(start, joined.toString().strip());
            if (c != null) {
                commands.add(c);
            }
            joined.setLength(0);
            start = -1;
        }
        if (start >= 0) {
            throw new IllegalArgumentException("line " + start + ": a continuation runs past the end of the block");
        }
        return commands;
    }

    /** A command line, or {@code null} when it holds nothing but a comment. */
    private static ShellCommand of(int line, String text) {
        List<String> words = new ArrayList<>();
        String comment = "";
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else if (c == '#' && !inWord) {
                comment = text.substring(i + 1).strip();
                break;
            } else if (c == '\'' || c == '"') {
                int end = text.indexOf(c, i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("line " + line + ": unbalanced " + c + " in " + text);
                }
                w.append(text, i + 1, end);
                inWord = true;
                i = end;
            } else if (c == '\\' && i + 1 < text.length()) {
                w.append(text.charAt(++i));
                inWord = true;
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        if (words.isEmpty()) {
            return null;
        }
        List<String> environment = new ArrayList<>();
        while (!words.isEmpty() && ASSIGNMENT.matcher(words.getFirst()).matches()) {
            environment.add(words.removeFirst());
        }
        Matcher exit = EXIT.matcher(comment);
        return new ShellCommand(line, text, List.copyOf(environment), List.copyOf(words),
                exit.matches() ? Integer.parseInt(exit.group(1)) : 0);
    }
}
