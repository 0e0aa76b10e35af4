package org.pagefabric.config;

import java.util.Objects;

/**
 * One parameter value set on top of a resolved profile by an experiment (a grid key, a
 * {@code --set key=value}), written as in a profile but on one line: the number and its unit
 * together ({@code "4 KiB"}, {@code "150 ns"}, {@code "1%"}, {@code "0.01"}), or a boolean or
 * choice ({@code "true"}, {@code "lru"}).
 *
 * @param parameter the parameter name, e.g. {@code link.loss}
 * @param value the value with its unit, as written
 * @param file where it was written (a spec file, {@code --set}); named by errors and the source
 * @param line the line in {@code file}, or 0
 */
public record ProfileOverride(String parameter, String value, String file, int line) {
    /** Requires the names. */
    public ProfileOverride {
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(file, "file");
    }

    /** The provenance the derived setting carries: {@code override: file:line}. */
    public String source() {
        return "override: " + (line > 0 ? file + ":" + line : file);
    }
}
