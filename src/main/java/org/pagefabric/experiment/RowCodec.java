package org.pagefabric.experiment;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row as a list of {@code [column, type, text]} triples that decodes to an equal row: same
 * column order, same Java types, same values. Plain JSON would not do: it reads a {@code Long}
 * back as an {@code Integer}, and a cached row must print exactly as the computed one did,
 * in CSV, JSON, tables and plots.
 */
final class RowCodec {
    private RowCodec() {
    }

    /** The row's triples, or {@code null} if a value has a type this codec does not carry. */
    static List<List<String>> encode(Map<String, Object> row) {
        List<List<String>> out = new ArrayList<>(row.size());
        for (Map.Entry<String, Object> e : row.entrySet()) {
            String type = type(e.getValue());
            if (type == null) {
                return null;
            }
            out.add(List.of(e.getKey(), type, e.getValue() == null ? "" : e.getValue().toString()));
        }
        return out;
    }

    /**
     * The row the triples encode.
     *
     * @throws IllegalArgumentException if a triple is malformed or a value does not parse
     */
    static Map<String, Object> decode(List<List<String>> triples) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (List<String> t : triples) {
            if (t == null || t.size() != 3 || t.get(0) == null || t.get(1) == null || t.get(2) == null) {
                throw new IllegalArgumentException("a cell is not [column, type, text]: " + t);
            }
            String text = t.get(2);
            Object v = switch (t.get(1)) {
                case "string" -> text;
                case "long" -> Long.valueOf(text);
                case "int" -> Integer.valueOf(text);
                case "double" -> Double.valueOf(text);
                case "float" -> Float.valueOf(text);
                case "boolean" -> parseBoolean(text);
                case "decimal" -> new BigDecimal(text);
                case "null" -> null;
                default -> throw new IllegalArgumentException("unknown cell type '" + t.get(1) + "'");
            };
            if (row.containsKey(t.get(0))) {
                throw new IllegalArgumentException("column '" + t.get(0) + "' twice");
            }
            row.put(t.get(0), v);
        }
        return row;
    }

    private static Boolean parseBoolean(String text) {
        return switch (text) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("not a boolean: " + text);
        };
    }

    private static String type(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "string";
            case Long l -> "long";
            case Integer i -> "int";
            case Double d -> "double";
            case Float f -> "float";
            case Boolean b -> "boolean";
            case BigDecimal d -> "decimal";
            default -> null;
        };
    }
}
