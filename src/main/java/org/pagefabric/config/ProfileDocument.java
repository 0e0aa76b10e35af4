package org.pagefabric.config;

import java.util.List;

/**
 * One profile file as written, before inheritance and unit conversion: what {@link ProfileReader}
 * extracts from the YAML, with the position of every field for error messages.
 *
 * @param file the file or bundled resource it was read from
 * @param name the profile's name
 * @param description what testbed the profile describes
 * @param extendsName the parent profile's name or path, or {@code null} for the root
 * @param extendsLine the line of the {@code extends} field, or 0
 * @param settings the parameters the file sets, in file order
 */
record ProfileDocument(String file, String name, String description, String extendsName, int extendsLine,
        List<Setting> settings) {

    /**
     * One parameter as written: {@code link.latency: {value: 150, unit: ns, source: "..."}}.
     *
     * @param name the parameter name as written
     * @param value the value's text ({@code 150}, {@code 2.33}, {@code true}, {@code lru})
     * @param unit the unit as written, empty if none
     * @param source the provenance text, {@code null} if missing
     * @param line line of the parameter's name
     * @param column column of the parameter's name
     * @param valueLine line of the value (for bad-number errors)
     * @param unitLine line of the unit
     * @param range the plausible range written beside the value, or {@code null}
     */
    record Setting(String name, String value, String unit, String source, int line, int column,
            int valueLine, int unitLine, RangeText range) {
        /** A setting without a stated plausible range. */
        Setting(String name, String value, String unit, String source, int line, int column, int valueLine,
                int unitLine) {
            this(name, value, unit, source, line, column, valueLine, unitLine, null);
        }
    }

    /**
     * A plausible range as written: {@code range: {low: 1, high: 3, reason: "..."}}, both ends in
     * the value's unit.
     *
     * @param low the low end's text
     * @param high the high end's text
     * @param reason why the value could lie anywhere between them
     * @param line the line of the {@code range} field
     */
    record RangeText(String low, String high, String reason, int line) {
    }
}
