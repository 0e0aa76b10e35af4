package org.pagefabric.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Checks an output option before anything runs, so that a sweep or a calibration does not spend
 * its time only to fail at the first write. A check really creates and removes a file where the
 * output will go (and the directories leading to it, removed again): permissions alone miss
 * pseudo-file systems such as {@code /proc} and {@code /sys}, read-only mounts and a superuser's
 * view. What a check created is removed before it returns.
 */
final class OutputPaths {
    private OutputPaths() {
    }

    /**
     * Refuses {@code dir} unless results can be written into it: an existing directory that takes
     * a file, or a path that can be created.
     *
     * @param option the option that named it, for the message; {@code dir} may be {@code null} (not given)
     * @throws IllegalArgumentException naming the option, the path and what is wrong
     */
    static void directory(String option, Path dir) {
        if (dir == null) {
            return;
        }
        Path abs = absolute(option, dir);
        if (Files.exists(abs)) {
            if (!Files.isDirectory(abs)) {
                throw new IllegalArgumentException(option + " " + dir + ": exists and is not a directory");
            }
            probe(option, dir, abs);
            return;
        }
        creatable(option, dir, abs);
        List<Path> made = new ArrayList<>();
        try {
            makeDirectories(option, dir, abs, made);
            probe(option, dir, abs);
        } finally {
            removeAll(made);
        }
    }

    /**
     * Refuses {@code file} unless it can be written: an existing regular file, or a path whose
     * directories exist or can be created.
     *
     * @throws IllegalArgumentException naming the option, the path and what is wrong
     */
    static void file(String option, Path file) {
        file(option, file, null);
    }

    /**
     * Refuses {@code file} unless it can be written and, if it exists, holds what an earlier run of
     * the same command wrote (its first line starts with {@code writtenBy}): a profile is
     * replaced whole, and a path mistyped onto some other file must not cost that file.
     *
     * @param writtenBy how the command's own output begins; {@code null} to replace any regular file
     * @throws IllegalArgumentException naming the option, the path and what is wrong
     */
    static void file(String option, Path file, String writtenBy) {
        if (file == null) {
            return;
        }
        Path abs = absolute(option, file);
        if (Files.isDirectory(abs)) {
            throw new IllegalArgumentException(option + " " + file + ": is a directory; give the file to write, e.g. "
                    + file.resolve("host.yaml"));
        }
        if (Files.exists(abs)) {
            if (!Files.isRegularFile(abs)) {
                throw new IllegalArgumentException(option + " " + file + ": not a regular file");
            }
            if (!Files.isWritable(abs)) {
                throw new IllegalArgumentException(option + " " + file + ": not writable");
            }
            if (writtenBy != null && !startsWith(abs, writtenBy)) {
                throw new IllegalArgumentException(option + " " + file + ": exists and was not written by '"
                        + writtenBy.replace("`", "") + "'; give a new path or remove the file first");
            }
            // the file is replaced by a renamed temporary one beside it
            probe(option, file, abs.getParent());
            return;
        }
        creatable(option, file, abs);
        List<Path> made = new ArrayList<>();
        try {
            makeDirectories(option, file, abs.getParent(), made);
            probe(option, file, abs.getParent());
        } finally {
            removeAll(made);
        }
    }

    /** Creates {@code dir} and its missing parents, recording each one made, outermost first. */
    private static void makeDirectories(String option, Path given, Path dir, List<Path> made) {
        List<Path> missing = new ArrayList<>();
        for (Path p = dir; p != null && !Files.exists(p); p = p.getParent()) {
            missing.addFirst(p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p);
            } catch (IOException | SecurityException e) {
                throw new IllegalArgumentException(option + " " + given + ": cannot be created (" + kind(e) + ")");
            }
            made.add(p);
        }
    }

    /** Removes the directories a check made, innermost first; one that cannot go is left, harmless and empty. */
    private static void removeAll(List<Path> made) {
        for (Path p : made.reversed()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Whether the file's first bytes are {@code prefix} (UTF-8); an unreadable file is not. */
    private static boolean startsWith(Path file, String prefix) {
        byte[] want = prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (java.io.InputStream in = Files.newInputStream(file)) {
            return java.util.Arrays.equals(in.readNBytes(want.length), want);
        } catch (IOException e) {
            return false;
        }
    }

    private static Path absolute(String option, Path p) {
        if (p.toString().isBlank()) {
            throw new IllegalArgumentException(option + ": empty path");
        }
        try {
            return p.toAbsolutePath().normalize();
        } catch (InvalidPathException | java.io.IOError e) {
            throw new IllegalArgumentException(option + " " + p + ": not a usable path");
        }
    }

    /** A missing path can be made when its nearest existing ancestor is a writable directory. */
    private static void creatable(String option, Path given, Path abs) {
        Path ancestor = abs.getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null || !Files.isDirectory(ancestor)) {
            throw new IllegalArgumentException(option + " " + given + ": cannot be created: "
                    + (ancestor == null ? "no existing parent directory" : ancestor + " is not a directory"));
        }
        if (!Files.isWritable(ancestor)) {
            throw new IllegalArgumentException(option + " " + given + ": cannot be created: " + ancestor
                    + " is not writable");
        }
    }

    /** Writes and removes a file: permissions alone miss read-only mounts and a superuser's view. */
    private static void probe(String option, Path given, Path dir) {
        try {
            Files.delete(Files.createTempFile(dir, ".pagefabric-probe", ""));
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option + " " + given + ": not writable (" + kind(e) + ")");
        }
    }

    /** What went wrong, in words: the operating system's reason, else the kind of failure. */
    private static String kind(Exception e) {
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT);
        }
        return e.getClass().getSimpleName().replace("Exception", "")
                .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }
}
