package org.pagefabric.experiment;

import com.fasterxml.jackson.core.JsonToken;
import java.util.ArrayList;
import java.util.List;
import org.pagefabric.config.Decimals;
import org.pagefabric.experiment.YamlNode.ListNode;
import org.pagefabric.experiment.YamlNode.MapNode;
import org.pagefabric.experiment.YamlNode.Scalar;
import org.pagefabric.workload.Workload;

/**
 * The small typed readers every part of a spec is read with: each takes a field of a YAML
 * mapping, checks it is what the field must be, and otherwise throws a {@link SpecException}
 * naming the file, line and field and what would be valid.
 */
final class SpecFields {
    /** The file name errors carry. */
    final String file;

    SpecFields(String file) {
        this.file = file;
    }

    void checkFields(MapNode m, String prefix, List<String> valid) {
        for (String key : m.entries().keySet()) {
            if (!valid.contains(key)) {
                throw new SpecException(file, m.keyLines().get(key), prefix + key,
                        "unknown field; valid fields: " + String.join(", ", valid));
            }
        }
    }

    Scalar scalar(MapNode m, String key, String prefix) {
        YamlNode n = m.entries().get(key);
        if (!(n instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
            throw new SpecException(file, m.keyLines().get(key), prefix + key,
                    "must be a single value, not a " + n.kind());
        }
        return s;
    }

    String text(MapNode m, String key, String prefix) {
        return scalar(m, key, prefix).text();
    }

    String text(MapNode m, String key, String prefix, String otherwise) {
        return m.entries().containsKey(key) ? text(m, key, prefix) : otherwise;
    }

    String requiredText(MapNode top, String key) {
        if (!top.entries().containsKey(key)) {
            throw new SpecException(file, top.line(), key, "missing; every spec needs "
                    + "id, title, workload and policies");
        }
        String t = text(top, key, "");
        if (t.isBlank()) {
            throw error(top, key, "is empty");
        }
        return t;
    }

    String optionalText(MapNode top, String key) {
        YamlNode n = top.entries().get(key);
        if (n == null || n instanceof Scalar s && s.token() == JsonToken.VALUE_NULL) {
            return null;
        }
        return text(top, key, "");
    }

    List<String> textList(MapNode top, String key, boolean required) {
        YamlNode n = top.entries().get(key);
        if (n == null) {
            if (required) {
                throw new SpecException(file, top.line(), key, "missing; every spec needs "
                        + "id, title, workload and policies");
            }
            return List.of();
        }
        if (!(n instanceof ListNode l)) {
            throw error(top, key, "must be a list, e.g. [a, b], not a " + n.kind());
        }
        List<String> out = new ArrayList<>();
        for (YamlNode item : l.items()) {
            if (!(item instanceof Scalar s) || s.token() == JsonToken.VALUE_NULL) {
                throw new SpecException(file, item.line(), key, "items must be single values, not a " + item.kind());
            }
            out.add(s.text());
        }
        return out;
    }

    long integer(MapNode m, String key, long min, long max, String prefix) {
        Scalar s = scalar(m, key, prefix);
        if (s.token() != JsonToken.VALUE_NUMBER_INT || !(s.value() instanceof Long v)) {
            throw new SpecException(file, s.line(), prefix + key, "'" + s.text() + "' is not a whole number");
        }
        if (v < min || v > max) {
            throw new SpecException(file, s.line(), prefix + key, v + " is out of range; valid: " + min + " to " + max);
        }
        return v;
    }

    /** Text for a message: control characters shown as escapes, so the message stays one line. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(60).forEach(c -> {
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return s.codePointCount(0, s.length()) > 60 ? b + "..." : b.toString();
    }

    /** A number YAML read as one, as a finite double: {@code 0x10} or {@code 1e999} are refused here. */
    double finite(Scalar s, String field) {
        double d = Scalar.decimal(s.text());
        if (!Double.isFinite(d)) {
            throw new SpecException(file, s.line(), field, "'" + s.text() + "' is not a finite decimal number; "
                    + Decimals.EXAMPLES);
        }
        return d;
    }

    boolean bool(MapNode m, String key) {
        Scalar s = scalar(m, key, "plot.");
        if (s.token() != JsonToken.VALUE_TRUE
                && s.token() != JsonToken.VALUE_FALSE) {
            throw new SpecException(file, s.line(), "plot." + key, "'" + s.text() + "' is not a boolean; valid values:"
                    + " true, false");
        }
        return s.token() == JsonToken.VALUE_TRUE;
    }

    SpecException error(MapNode m, String key, String problem) {
        return new SpecException(file, m.keyLines().getOrDefault(key, m.line()), key, problem);
    }

    void checkMetric(String name, int line, String field, Workload workload) {
        if (!workload.metrics().contains(name)) {
            throw new SpecException(file, line, field, "unknown metric '" + name + "'; workload '" + workload.name()
                    + "' produces: " + String.join(", ", workload.metrics()));
        }
    }
}
