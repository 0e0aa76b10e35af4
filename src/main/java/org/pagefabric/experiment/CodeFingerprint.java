package org.pagefabric.experiment;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * A SHA-256 of the code that is running: the contents of every class and resource in the jar
 * (or classes directory) PageFabric was loaded from, by name, without time stamps. The git
 * commit alone does not name the code of a dirty work tree, so the point cache keys on this too:
 * an edited and rebuilt simulator never reuses a point an older build computed, while two
 * builds of the same sources (whose jars differ only in time stamps) share their points.
 */
final class CodeFingerprint {
    private CodeFingerprint() {
    }

    // computed once: the code does not change under a running JVM
    private static final class Holder {
        static final String VALUE = compute();
    }

    /** The hex digest of the running code, or {@code "unknown"} where its location cannot be read. */
    static String value() {
        return Holder.VALUE;
    }

    private static String compute() {
        CodeSource source = CodeFingerprint.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "unknown";
        }
        try {
            Path where = Path.of(source.getLocation().toURI());
            return Files.isDirectory(where) ? ofDirectory(where) : ofJar(where);
        } catch (IOException | URISyntaxException | IllegalArgumentException e) {
            return "unknown";
        }
    }

    /** Digest of the jar's entries in name order; the manifest and Maven's metadata are left out. */
    static String ofJar(Path jar) throws IOException {
        MessageDigest sha = sha256();
        try (JarFile f = new JarFile(jar.toFile())) {
            TreeMap<String, JarEntry> byName = new TreeMap<>();
            f.stream().filter(e -> !e.isDirectory() && !metadata(e.getName())).forEach(e -> byName.put(e.getName(), e));
            for (JarEntry e : byName.values()) {
                sha.update(e.getName().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
                try (InputStream in = f.getInputStream(e)) {
                    sha.update(in.readAllBytes());
                }
                sha.update((byte) 0);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** Digest of every file under {@code root} in relative-path order (tests run from target/classes). */
    static String ofDirectory(Path root) throws IOException {
        MessageDigest sha = sha256();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(Files::isRegularFile).forEach(files::add);
        }
        files.sort(null);
        for (Path p : files) {
            sha.update(root.relativize(p).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(Files.readAllBytes(p));
            sha.update((byte) 0);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static boolean metadata(String name) {
        return name.equals("META-INF/MANIFEST.MF") || name.startsWith("META-INF/maven/");
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
