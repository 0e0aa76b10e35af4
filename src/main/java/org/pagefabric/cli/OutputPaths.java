package org.pagefabric.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Checks an output option before anything runs, so that a sweep or a calibration does not spend
 * its time only to fail at the first write. A check really creates and removes a file where the
 * output will go: permissions alone miss pseudo-file systems such as {@code /proc} and
 * {@code /sys}, read-only mounts and a superuser's view.
 *
 * <p>The directories leading there are created and left: two commands started together into the
 * same new directory each check it, and one that removed "its" directory again would pull it from
 * under the other's probe or output. The probe file has a unique name for the same reason. Commands
 * check their other arguments first, so a refused command does not leave an empty directory.
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
        makeDirectories(option, dir, abs);
        probe(option, dir, abs);
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
        makeDirectories(option, file, abs.getParent());
        probe(option, file, abs.getParent());
    }

    /**
     * Creates {@code dir} and its missing parents; one that another process creates meanwhile is
     * taken as it is.
     */
    private static void makeDirectories(String option, Path given, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option + " " + given + ": cannot be created (" + kind(e) + ")");
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

    /**
     * Writes and removes a file: permissions alone miss read-only mounts and a superuser's view.
     * Its name is unique, so checks of one directory running together do not meet.
     */
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
