package org.pagefabric.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The interposer library: its C source travels in the jar and is compiled with the system's
 * {@code mpicc} at first use, into a cache directory, under a name that carries a digest of the
 * source, so an edited source is rebuilt and an unchanged one never is.
 */
public final class InterposerLibrary {
    private static final String SOURCE = "pfrec.c";

    private InterposerLibrary() {
    }

    /**
     * The path of the built library, building it if needed.
     *
     * @param cacheDir where built libraries are kept
     * @throws RecordingRefused when there is no compiler or the build fails
     */
    public static Path build(Path cacheDir) throws RecordingRefused {
        byte[] source = source();
        String digest = digest(source);
        Path lib = cacheDir.resolve("libpfrec-" + digest + ".so");
        if (Files.isRegularFile(lib)) {
            return lib;
        }
        String cc = Executables.find("mpicc");
        if (cc == null) {
            throw new RecordingRefused("the recorder library is built with mpicc, which is not on the PATH; install"
                    + " Open MPI's development files (Debian: apt-get install libopenmpi-dev)");
        }
        try {
            Files.createDirectories(cacheDir);
            Path src = Files.createTempFile(cacheDir, "pfrec-", ".c");
            Path tmp = Files.createTempFile(cacheDir, "libpfrec-", ".so.tmp");
            try {
                Files.write(src, source);
                Path log = Files.createTempFile(cacheDir, "pfrec-", ".log");
                Process p = new ProcessBuilder(List.of(cc, "-shared", "-fPIC", "-O2", "-o", tmp.toString(),
                        src.toString(), "-ldl")).redirectErrorStream(true).redirectOutput(log.toFile()).start();
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new RecordingRefused("building the recorder library with " + cc + " took over two minutes");
                }
                String output = Files.readString(log).strip();
                Files.deleteIfExists(log);
                if (p.exitValue() != 0) {
                    String first = output.isEmpty() ? "no message" : output.lines().findFirst().orElse("");
                    throw new RecordingRefused("building the recorder library with " + cc + " failed: " + first);
                }
                try {
                    Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(src);
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new RecordingRefused("cannot build the recorder library in " + cacheDir + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RecordingRefused("interrupted while building the recorder library");
        }
        return lib;
    }

    /** Where built libraries are kept: $XDG_CACHE_HOME/pagefabric, else ~/.cache/pagefabric. */
    public static Path defaultCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("pagefabric");
    }

    private static byte[] source() throws RecordingRefused {
        try (InputStream in = InterposerLibrary.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new RecordingRefused("the recorder's C source is missing from this build (" + SOURCE + ")");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new RecordingRefused("the recorder's C source cannot be read: " + e.getMessage());
        }
    }

    private static String digest(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
