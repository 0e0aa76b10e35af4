package org.pagefabric.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads one profile file into a {@link ProfileDocument}. It walks Jackson's streaming YAML parser
 * rather than binding to objects, because only the token stream carries the line and column of
 * every field, and every error must name them.
 */
final class ProfileReader {
    private static final String TOP_FIELDS = "name, description, extends, parameters";
    private static final String SETTING_FIELDS = "value, unit, source, range";
    private static final String RANGE_FIELDS = "low, high, reason";
    private static final String RANGE_FORM = "write it as range: {low: 50, high: 200, reason: \"...\"}, both ends"
            + " in the value's unit";
    private static final String SETTING_FORM = "write it as {value: 150, unit: ns, source: \"000 §V: ...\"}";

    private static final YAMLFactory YAML = YAMLFactory.builder().build();

    private final String file;
    private final JsonParser p;

    private ProfileReader(String file, JsonParser p) {
        this.file = file;
        this.p = p;
    }

    /**
     * Parses a profile.
     *
     * @param file the name used in error messages (a path or {@code profiles/x.yaml})
     * @param text the YAML text
     * @throws ProfileException if the YAML is malformed or the document's shape is wrong
     */
    static ProfileDocument read(String file, String text) {
        YamlFeatures.Refusal refused = YamlFeatures.firstRefused(text);
        if (refused != null) {
            throw new ProfileException(file, refused.line(), 0, null, refused.problem());
        }
        try (JsonParser parser = YAML.createParser(text)) {
            return new ProfileReader(file, parser).document();
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof MarkedYAMLException y && y.getProblemMark() != null) {
                throw syntax(file, y);
            }
            JsonLocation at = e.getLocation();
            throw new ProfileException(file, at == null ? 0 : at.getLineNr(), at == null ? 0 : at.getColumnNr(), null,
                    "not valid YAML: " + YamlFeatures.plainMessage(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ProfileException(file, 0, 0, null, "cannot be read: " + e.getMessage());
        }
    }

    /** SnakeYAML's own message spans lines and repeats the input; keep its problem and where it started. */
    private static ProfileException syntax(String file, MarkedYAMLException y) {
        Mark problem = y.getProblemMark();
        StringBuilder sb = new StringBuilder("not valid YAML: ");
        if (y.getContext() != null) {
            sb.append(y.getContext());
            Mark started = y.getContextMark();
            if (started != null) {
                sb.append(" (started at line ").append(started.getLine() + 1).append(", column ")
                        .append(started.getColumn() + 1).append(')');
            }
            sb.append(": ");
        }
        sb.append(y.getProblem());
        return new ProfileException(file, problem.getLine() + 1, problem.getColumn() + 1, null, sb.toString());
    }

    private ProfileDocument document() throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            throw error(null, "the file is empty; a profile is a mapping with fields " + TOP_FIELDS);
        }
        if (t != JsonToken.START_OBJECT) {
            throw error(null, "a profile is a mapping with fields " + TOP_FIELDS + ", not a " + describe(t));
        }
        String name = null;
        String description = null;
        String parent = null;
        int parentLine = 0;
        int nameLine = 0;
        List<ProfileDocument.Setting> settings = null;
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (!seen.add(key)) {
                throw error(key, "appears twice");
            }
            int line = line();
            switch (key) {
                case "name" -> {
                    name = scalar(key);
                    nameLine = line;
                }
                case "description" -> description = scalar(key);
                case "extends" -> {
                    parent = scalar(key);
                    parentLine = line;
                }
                case "parameters" -> settings = parameters();
                default -> throw error(key, "unknown field; valid fields: " + TOP_FIELDS);
            }
        }
        if (p.nextToken() != null) {
            throw error(null, "only one YAML document per profile file");
        }
        if (name == null || name.isBlank()) {
            throw new ProfileException(file, 1, 1, "name", "missing; every profile needs a name");
        }
        if (!name.matches("[a-z0-9][a-z0-9._-]*")) {
            throw new ProfileException(file, nameLine, 0, "name",
                    "'" + name + "' is not a valid profile name; use lower-case letters, digits, '.', '_' and '-'");
        }
        if (description == null || description.isBlank()) {
            throw new ProfileException(file, 1, 1, "description", "missing; say which testbed the profile describes");
        }
        return new ProfileDocument(file, name, description.strip(), parent, parentLine,
                settings == null ? List.of() : List.copyOf(settings));
    }

    private List<ProfileDocument.Setting> parameters() throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) {
            return List.of();
        }
        if (t != JsonToken.START_OBJECT) {
            throw error("parameters", "must be a mapping from parameter names to {value, unit, source}");
        }
        List<ProfileDocument.Setting> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            int line = line();
            int column = column();
            if (!seen.add(name)) {
                throw error(name, "is set twice in this file");
            }
            out.add(setting(name, line, column));
        }
        return out;
    }

    private ProfileDocument.Setting setting(String name, int line, int column) throws IOException {
        JsonToken t = p.nextToken();
        if (t != JsonToken.START_OBJECT) {
            throw error(name, "a bare " + describe(t) + " has no unit and no source; " + SETTING_FORM);
        }
        String value = null;
        String unit = "";
        String source = null;
        ProfileDocument.RangeText range = null;
        int valueLine = line;
        int unitLine = line;
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (!seen.add(key)) {
                throw error(name + "." + key, "appears twice");
            }
            switch (key) {
                case "value" -> {
                    value = scalar(name + ".value");
                    valueLine = line();
                }
                case "unit" -> {
                    unit = scalar(name + ".unit");
                    unitLine = line();
                }
                case "source" -> source = scalar(name + ".source");
                case "range" -> range = range(name + ".range");
                default -> throw error(name + "." + key, "unknown field; valid fields: " + SETTING_FIELDS);
            }
        }
        if (value == null) {
            throw new ProfileException(file, line, column, name, "the value is missing; " + SETTING_FORM);
        }
        if (source == null || source.isBlank()) {
            throw new ProfileException(file, line, column, name,
                    "the source is missing; every value needs one: " + SourceCitation.FORMS);
        }
        return new ProfileDocument.Setting(name, value.strip(), unit == null ? "" : unit.strip(), source.strip(),
                line, column, valueLine, unitLine, range);
    }

    /** Reads a {@code range: {low, high, reason}} mapping; every field is required. */
    private ProfileDocument.RangeText range(String field) throws IOException {
        int line = line();
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw error(field, "must be a mapping; " + RANGE_FORM);
        }
        String low = null;
        String high = null;
        String reason = null;
        Set<String> seen = new HashSet<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (!seen.add(key)) {
                throw error(field + "." + key, "appears twice");
            }
            switch (key) {
                case "low" -> low = scalar(field + ".low");
                case "high" -> high = scalar(field + ".high");
                case "reason" -> reason = scalar(field + ".reason");
                default -> throw error(field + "." + key, "unknown field; valid fields: " + RANGE_FIELDS);
            }
        }
        if (low == null || high == null) {
            throw new ProfileException(file, line, 0, field, "needs both low and high; " + RANGE_FORM);
        }
        if (reason == null || reason.isBlank()) {
            throw new ProfileException(file, line, 0, field + ".reason",
                    "missing; say why the value could lie anywhere in the range (the sources' spread)");
        }
        return new ProfileDocument.RangeText(low.strip(), high.strip(), reason.strip(), line);
    }

    /** Reads the next token as a scalar's text; {@code null} for an explicit YAML null. */
    private String scalar(String field) throws IOException {
        JsonToken t = p.nextToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == null || !t.isScalarValue()) {
            throw error(field, "must be a single value, not a " + describe(t));
        }
        return p.getText();
    }

    private static String describe(JsonToken t) {
        if (t == null) {
            return "missing value";
        }
        return switch (t) {
            case START_OBJECT -> "mapping";
            case START_ARRAY -> "list";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            default -> "text";
        };
    }

    private int line() {
        return p.currentTokenLocation().getLineNr();
    }

    private int column() {
        return p.currentTokenLocation().getColumnNr();
    }

    private ProfileException error(String field, String problem) {
        return new ProfileException(file, line(), column(), field, problem);
    }
}
