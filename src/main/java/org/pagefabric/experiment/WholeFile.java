package org.pagefabric.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Writes a result file whole or not at all: the bytes go to a temporary name beside the file and
 * are renamed into place, so a full disk, an I/O error or a kill leaves the previous file or none,
 * never a truncated one that a reader would take for a result.
 */
public final class WholeFile {
    private WholeFile() {
    }

    /**
     * Writes {@code text} as UTF-8 to {@code file}, creating its directory.
     *
     * @throws WriteFailedException naming the file and why, with the temporary file removed
     */
    public static void write(Path file, String text) {
        write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes {@code bytes} to {@code file}, creating its directory.
     *
     * @throws WriteFailedException naming the file and why, with the temporary file removed
     */
    public static void write(Path file, byte[] bytes) {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
            Files.write(tmp, bytes);
            readableByAll(tmp);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new WriteFailedException(file, reason(e));
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // the disk that refused the write may refuse this too; a hidden .tmp is harmless
                }
            }
        }
    }

    /**
     * A temporary file is created private (rw-------); the result it becomes is an ordinary file,
     * rw-r--r-- as the usual umask gives, for the others who read a shared results directory.
     */
    private static void readableByAll(Path tmp) throws IOException {
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its default permissions stand
        }
    }

    /** Why a file operation failed, in the operating system's words, never a class name. */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException f) {
            if (f.getReason() != null) {
                return f.getReason().toLowerCase(Locale.ROOT);
            }
            return f.getClass().getSimpleName().replace("Exception", "")
                    .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? "input/output error" : m.toLowerCase(Locale.ROOT);
    }
}
