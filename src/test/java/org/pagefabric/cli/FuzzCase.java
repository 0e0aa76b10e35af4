package org.pagefabric.cli;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One generated input to the command line: its arguments and the files they name (spec and
 * profile text, written into the case's input directory before it runs). The seed alone
 * regenerates it.
 *
 * @param seed what {@link FuzzInputs#generate} made it from
 * @param kind args, spec or profile: which generator made it
 * @param args the command line, paths already absolute
 * @param files file name in the input directory to content (bytes: encodings are fuzzed too)
 * @param named what an error line must mention (a file's name, or any of the arguments if empty)
 */
record FuzzCase(long seed, String kind, List<String> args, Map<String, byte[]> files, List<String> named) {
    /** The case for a failure report: seed, command line and the files, escaped and cut short. */
    String describe() {
        StringBuilder b = new StringBuilder("seed ").append(seed).append(" (").append(kind).append("): pagefabric");
        for (String a : args) {
            b.append(' ').append(quote(a));
        }
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            b.append("\n    ").append(f.getKey()).append(": ")
                    .append(quote(new String(f.getValue(), StandardCharsets.UTF_8)));
        }
        return b.toString();
    }

    /** {@code s} in single quotes with control characters visible, cut to 600 characters. */
    static String quote(String s) {
        String shown = s.length() > 600 ? s.substring(0, 600) + "...(" + s.length() + " chars)" : s;
        return "'" + shown.codePoints().mapToObj(c -> c == '\n' ? "\\n" : c < 0x20 || c == 0x7f
                ? String.format("\\x%02x", c) : new String(Character.toChars(c)))
                .collect(Collectors.joining()) + "'";
    }
}
