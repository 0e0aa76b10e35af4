package org.pagefabric.experiment;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.config.Decimals;
import org.pagefabric.config.YamlFeatures;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document as a small tree that remembers the line of every node. Jackson's object
 * binding loses positions and its tree model has none, so the spec reader walks the streaming
 * parser once into this tree and validates the tree; every error can then name its line.
 */
sealed interface YamlNode {
    /** The 1-based line the node starts on. */
    int line();

    /** What the node is, for messages ("mapping", "list", "number", "text", ...). */
    String kind();

    /**
     * A mapping, keys in document order.
     *
     * @param line    the line of the mapping
     * @param entries key → value
     * @param keyLines key → the line of the key
     */
    record MapNode(int line, Map<String, YamlNode> entries, Map<String, Integer> keyLines) implements YamlNode {
        @Override
        public String kind() {
            return "mapping";
        }
    }

    /**
     * A sequence.
     *
     * @param line  the line of the sequence
     * @param items the items in order
     */
    record ListNode(int line, List<YamlNode> items) implements YamlNode {
        @Override
        public String kind() {
            return "list";
        }
    }

    /**
     * A scalar: the text as written and what YAML made of it.
     *
     * @param line  its line
     * @param text  the text as written ({@code 000}, {@code 4 KiB}, {@code 0.01})
     * @param token the scalar token ({@code VALUE_NUMBER_INT}, {@code VALUE_STRING}, ...)
     */
    record Scalar(int line, String text, JsonToken token) implements YamlNode {
        @Override
        public String kind() {
            return switch (token) {
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
                case VALUE_TRUE, VALUE_FALSE -> "boolean";
                case VALUE_NULL -> "null";
                default -> "text";
            };
        }

        /** Whether YAML read a number. */
        boolean isNumber() {
            return token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
        }

        /**
         * A YAML float's value; NaN for YAML's {@code .nan} and any text that is not a decimal,
         * an infinity for {@code .inf} and for an exponent too large for a double.
         */
        static double decimal(String text) {
            String t = text.strip().toLowerCase(java.util.Locale.ROOT);
            if (t.endsWith(".inf")) {
                return t.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            try {
                return Decimals.problem(t) == null ? Double.parseDouble(t.replace("_", "")) : Double.NaN;
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }

        /** The value in Java terms: Long, Double, Boolean, String, or null. */
        Object value() {
            return switch (token) {
                case VALUE_NUMBER_INT -> {
                    try {
                        yield Long.parseLong(text.replace("_", ""));
                    } catch (NumberFormatException e) {
                        yield text;   // octal/hex/huge: keep the text, validation reports it
                    }
                }
                case VALUE_NUMBER_FLOAT -> decimal(text);
                case VALUE_TRUE -> Boolean.TRUE;
                case VALUE_FALSE -> Boolean.FALSE;
                case VALUE_NULL -> null;
                default -> text;
            };
        }
    }

    /**
     * Parses one YAML document.
     *
     * @param file the name errors use
     * @param text the YAML text
     * @return the root node, or {@code null} for an empty document
     * @throws SpecException for malformed YAML, a repeated key, or more than one document
     */
    static YamlNode parse(String file, String text) {
        YamlFeatures.Refusal refused = YamlFeatures.firstRefused(text);
        if (refused != null) {
            throw new SpecException(file, refused.line(), null, refused.problem());
        }
        try (JsonParser p = YAMLFactory.builder().build().createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return null;
            }
            YamlNode root = node(file, p, t, null, 0);
            if (p.nextToken() != null) {
                throw new SpecException(file, p.currentTokenLocation().getLineNr(), null,
                        "only one YAML document per spec file");
            }
            return root;
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof MarkedYAMLException y && y.getProblemMark() != null) {
                Mark m = y.getProblemMark();
                // SnakeYAML's own message spans lines and repeats the input; keep the problem.
                throw new SpecException(file, m.getLine() + 1, null, "not valid YAML: "
                        + (y.getContext() != null ? y.getContext() + ": " : "") + y.getProblem());
            }
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new SpecException(file, line, null, "not valid YAML: "
                    + YamlFeatures.plainMessage(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new SpecException(file, 0, null, "cannot be read: " + e.getMessage());
        }
    }

    /** Deeper than any spec needs (it uses four levels), and far from the stack's limit. */
    int MAX_DEPTH = 32;

    private static YamlNode node(String file, JsonParser p, JsonToken t, String field, int depth) throws IOException {
        int line = p.currentTokenLocation().getLineNr();
        if (depth > MAX_DEPTH) {
            throw new SpecException(file, line, field, "is nested more than " + MAX_DEPTH
                    + " lists or mappings deep; a spec needs a few");
        }
        switch (t) {
            case START_OBJECT -> {
                Map<String, YamlNode> entries = new LinkedHashMap<>();
                Map<String, Integer> lines = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = p.currentTokenLocation().getLineNr();
                    if (entries.containsKey(key)) {
                        throw new SpecException(file, keyLine, key, "appears twice");
                    }
                    lines.put(key, keyLine);
                    entries.put(key, node(file, p, p.nextToken(), field == null ? key : field + "." + key, depth + 1));
                }
                return new MapNode(line, Collections.unmodifiableMap(entries), Collections.unmodifiableMap(lines));
            }
            case START_ARRAY -> {
                List<YamlNode> items = new ArrayList<>();
                JsonToken n;
                while ((n = p.nextToken()) != JsonToken.END_ARRAY) {
                    String item = "[" + items.size() + "]";
                    items.add(node(file, p, n, field == null ? item : field + item, depth + 1));
                }
                return new ListNode(line, List.copyOf(items));
            }
            case VALUE_NUMBER_FLOAT -> {
                String text = p.getText();
                if (!Double.isFinite(Scalar.decimal(text))) {
                    throw new SpecException(file, line, field, "'" + text + "' is not a finite number; "
                            + Decimals.EXAMPLES);
                }
                return new Scalar(line, text, t);
            }
            case VALUE_EMBEDDED_OBJECT -> throw new SpecException(file, line, field,
                    "binary data is not a value a spec takes; write a number or a text");
            default -> {
                return new Scalar(line, t == JsonToken.VALUE_NULL ? "" : p.getText(), t);
            }
        }
    }
}
