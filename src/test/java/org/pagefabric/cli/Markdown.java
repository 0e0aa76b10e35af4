package org.pagefabric.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The parts of a Markdown file that documentation tests check: fenced code blocks (with the
 * language they name, and whether they are closed), relative links, headings and inline code.
 * Only what PageFabric's own documents use is recognised; it is not a CommonMark parser.
 */
final class Markdown {
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})\\s*([^`\\s]*).*$");
    private static final Pattern NOT_RUN = Pattern.compile("^\\s*<!--\\s*not run:\\s*(.*?)\\s*-->\\s*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /**
     * A fenced code block.
     *
     * @param file      the document
     * @param line      1-based line of the opening fence
     * @param language  the info string's first word, empty when none is given
     * @param body      the lines between the fences
     * @param closed    whether a closing fence was found before the end of the file or the next
     *                  opening fence with a language
     * @param notRun    the reason given in a {@code <!-- not run: REASON -->} comment on the line
     *                  before the fence (blank lines between allowed), or {@code null}
     */
    record Fence(Path file, int line, String language, List<String> body, boolean closed, String notRun) {
        String where() {
            return file + ":" + line;
        }
    }

    /**
     * A line of prose (outside any fence).
     *
     * @param line 1-based
     */
    record ProseLine(int line, String text) {
    }

    final Path file;
    final List<Fence> fences = new ArrayList<>();
    final List<ProseLine> prose = new ArrayList<>();

    private Markdown(Path file, List<String> lines) {
        this.file = file;
        String lastProse = null;
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                prose.add(new ProseLine(i + 1, lines.get(i)));
                if (!lines.get(i).isBlank()) {
                    lastProse = lines.get(i);
                }
                continue;
            }
            String marker = open.group(1);
            List<String> body = new ArrayList<>();
            int j = i + 1;
            boolean closed = false;
            for (; j < lines.size(); j++) {
                String t = lines.get(j).strip();
                if (t.length() >= marker.length() && t.chars().allMatch(c -> c == marker.charAt(0))) {
                    closed = true;
                    break;
                }
                Matcher inner = FENCE.matcher(lines.get(j));
                if (inner.matches() && inner.group(1).equals(marker) && !inner.group(2).isEmpty()) {
                    // An opening fence with a language inside a block of the same fence: the
                    // author meant a new block, and this one was never closed.
                    j--;
                    break;
                }
                body.add(lines.get(j));
            }
            Matcher notRun = lastProse == null ? null : NOT_RUN.matcher(lastProse);
            fences.add(new Fence(file, i + 1, open.group(2).toLowerCase(Locale.ROOT), List.copyOf(body), closed,
                    notRun != null && notRun.matches() ? notRun.group(1) : null));
            lastProse = null;
            i = j;
        }
    }

    /** Reads and parses a document. */
    static Markdown read(Path file) throws IOException {
        return new Markdown(file, Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    /** README.md and every Markdown file under docs/, from the project directory. */
    static List<Path> documents() throws IOException {
        List<Path> all = new ArrayList<>();
        all.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(all::add);
        }
        return all;
    }

    /** The code spans of a prose line, in order. */
    static List<String> inlineCode(String text) {
        List<String> spans = new ArrayList<>();
        Matcher m = INLINE_CODE.matcher(text);
        while (m.find()) {
            spans.add(m.group(1));
        }
        return spans;
    }

    /** Link targets of a prose line that are neither absolute URLs nor inside code spans. */
    static List<String> relativeLinks(String text) {
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(INLINE_CODE.matcher(text).replaceAll(""));
        while (m.find()) {
            String t = m.group(1);
            if (!t.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                targets.add(t);
            }
        }
        return targets;
    }

    /** The anchors GitHub gives this document's headings. */
    List<String> anchors() {
        List<String> anchors = new ArrayList<>();
        for (ProseLine p : prose) {
            Matcher h = HEADING.matcher(p.text());
            if (h.matches()) {
                String slug = h.group(1).toLowerCase(Locale.ROOT).replace("`", "")
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                String unique = slug;
                for (int n = 1; anchors.contains(unique); n++) {
                    unique = slug + "-" + n;
                }
                anchors.add(unique);
            }
        }
        return anchors;
    }
}
