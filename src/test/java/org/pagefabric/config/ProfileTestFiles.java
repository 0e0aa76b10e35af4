package org.pagefabric.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small profiles for tests. */
final class ProfileTestFiles {
    private ProfileTestFiles() {
    }

    /** Writes {@code text} to {@code dir/name} and returns the path. */
    static Path write(Path dir, String name, String text) {
        try {
            Path f = dir.resolve(name);
            Files.writeString(f, text);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A profile extending default that sets one parameter. */
    static String oneSetting(String name, String value, String unit, String source) {
        return "name: t\ndescription: test\nparameters:\n  " + name + ": {value: " + value
                + (unit == null ? "" : ", unit: " + unit) + ", source: \"" + source + "\"}\n";
    }
}
