package org.pagefabric.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of the main sources says what it holds and which layers it may use, in a
 * {@code package-info.java}: a package added without one fails here, by name.
 */
class PackageInfoTest {
    private static final Path MAIN = Path.of("src", "main", "java");

    @Test
    void everyPackageHasAPackageInfo() throws IOException {
        List<Path> packages;
        try (Stream<Path> dirs = Files.walk(MAIN)) {
            packages = dirs.filter(Files::isDirectory).filter(PackageInfoTest::holdsClasses).toList();
        }
        assertTrue(packages.size() >= 40, "packages found under " + MAIN.toAbsolutePath() + ": " + packages);
        List<String> missing = packages.stream().filter(d -> !Files.isRegularFile(d.resolve("package-info.java")))
                .map(d -> MAIN.relativize(d).toString().replace(d.getFileSystem().getSeparator(), ".")).sorted()
                .toList();
        assertEquals(List.of(), missing, "packages without a package-info.java");
    }

    private static boolean holdsClasses(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(".java")
                    && !f.getFileName().toString().equals("package-info.java"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
