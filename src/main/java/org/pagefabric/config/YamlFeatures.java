package org.pagefabric.config;

import java.io.StringReader;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;

/**
 * Refuses the YAML features profiles and specs do not use: aliases ({@code *x}), anchors
 * ({@code &x}) and explicit tags ({@code !!str}, {@code !foo}). The streaming reader that builds
 * profiles and specs would otherwise read an alias as the text {@code x} and drop a tag without a
 * word; and an anchor is only there to be aliased. Jackson does not report a scalar's anchor, so
 * this walks SnakeYAML's own events once before the real read.
 */
public final class YamlFeatures {
    private YamlFeatures() {
    }

    /**
     * What the first refused feature in {@code text} is, with its 1-based line, or {@code null}
     * if there is none. Malformed YAML is left to the real read, which reports it with its place.
     */
    public static Refusal firstRefused(String text) {
        try {
            for (Event e : new Yaml(new LoaderOptions()).parse(new StringReader(text))) {
                int line = e.getStartMark() == null ? 0 : e.getStartMark().getLine() + 1;
                if (e instanceof AliasEvent a) {
                    return new Refusal(line, "the alias *" + a.getAnchor() + " is not supported; write the value out");
                }
                if (e instanceof NodeEvent n && n.getAnchor() != null) {
                    return new Refusal(line, "the anchor &" + n.getAnchor() + " is not supported; write values out,"
                            + " without anchors and aliases");
                }
                String tag = e instanceof ScalarEvent s ? s.getTag()
                        : e instanceof CollectionStartEvent c ? c.getTag() : null;
                if (tag != null) {
                    return new Refusal(line, "the explicit tag " + tag + " is not supported; write plain values"
                            + " (quote a text that looks like a number)");
                }
            }
        } catch (YAMLException e) {
            return null;
        }
        return null;
    }

    private static final java.util.regex.Pattern EVENT =
            java.util.regex.Pattern.compile("<?org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event(\\([^)]*\\))?>?");
    private static final java.util.regex.Pattern CLASS = java.util.regex.Pattern.compile("org\\.yaml\\.snakeyaml\\.[\\w.$]+");

    /**
     * A parser's message in the words of the file: SnakeYAML's event and class names, which mean
     * nothing to whoever wrote the YAML, become what they stand for, and a key that is a list or
     * mapping is said to be one.
     */
    public static String plainMessage(String message) {
        String m = message.replace('\n', ' ');
        if (m.startsWith("Expected a field name")) {
            return "a mapping key must be a single value, not a list or mapping";
        }
        java.util.regex.Matcher e = EVENT.matcher(m);
        StringBuilder out = new StringBuilder();
        while (e.find()) {
            String kind = switch (e.group(1)) {
                case "MappingStart" -> "the start of a mapping";
                case "MappingEnd" -> "the end of a mapping";
                case "SequenceStart" -> "the start of a list";
                case "SequenceEnd" -> "the end of a list";
                case "Scalar" -> "a value";
                case "Alias" -> "an alias";
                case "DocumentStart" -> "the start of a document";
                case "DocumentEnd" -> "the end of a document";
                default -> "YAML " + e.group(1).toLowerCase(java.util.Locale.ROOT);
            };
            e.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(kind));
        }
        e.appendTail(out);
        return CLASS.matcher(out).replaceAll("YAML");
    }

    /**
     * A YAML feature that is refused.
     *
     * @param line    the 1-based line it is on
     * @param problem what it is and what to write instead
     */
    public record Refusal(int line, String problem) {
    }
}
