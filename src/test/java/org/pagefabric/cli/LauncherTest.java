package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ./pagefabric} launcher's JDK search, run as a real shell script. */
class LauncherTest {
    @TempDir
    Path tmp;

    /** A fake {@code java} that reports the given specification version. */
    private Path fakeJdk(String name, int version) throws IOException {
        Path bin = tmp.resolve(name).resolve("bin");
        Files.createDirectories(bin);
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\ncase \"$1\" in -XshowSettings*) echo '    java.specification.version = "
                + version + "' >&2; exit 0;; esac\necho \"fake-java-" + version + " $*\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin.getParent();
    }

    private record Outcome(int code, String out, String err) {
    }

    /** A copy of the launcher in a scratch repository whose jar is newer than its sources. */
    private Path scratchRepo() throws IOException {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve("src/main"));
        Files.createDirectories(repo.resolve("target"));
        Files.copy(Path.of("pagefabric"), repo.resolve("pagefabric"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        Files.writeString(repo.resolve("src/main/Source.java"), "class Source {}");
        Path jar = repo.resolve("target/pagefabric.jar");
        Files.writeString(jar, "jar");
        Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        return repo;
    }

    private Outcome launch(Path repo, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("pagefabric").toString(), "--version");
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher hung");
        return new Outcome(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void withoutAJdk25ItSaysSoInOneLineAndExits2() throws Exception {
        Path jdk17 = fakeJdk("jdk17", 17);
        Outcome o = launch(scratchRepo(), Map.of("JAVA_HOME", jdk17.toString(),
                "PAGEFABRIC_JDK_FALLBACK", tmp.resolve("none").toString(), "PATH", jdk17.resolve("bin") + ":/usr/bin:/bin"));
        assertEquals(2, o.code(), o.err());
        assertEquals("", o.out());
        String err = o.err().strip();
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains("no JDK 25 found"), err);
    }

    @Test
    void aJdk25OnThePathIsUsedWhenJavaHomeIsOlder() throws Exception {
        Path jdk17 = fakeJdk("jdk17", 17);
        Path jdk25 = fakeJdk("jdk25", 25);
        Outcome o = launch(scratchRepo(), Map.of("JAVA_HOME", jdk17.toString(),
                "PAGEFABRIC_JDK_FALLBACK", tmp.resolve("none").toString(), "PATH", jdk25.resolve("bin") + ":/usr/bin:/bin"));
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err(), "no rebuild: the jar is newer than the sources");
        assertTrue(o.out().startsWith("fake-java-25 "), o.out());
        assertTrue(o.out().contains("--add-exports java.base/jdk.internal.vm=ALL-UNNAMED"), o.out());
        assertTrue(o.out().strip().endsWith("--version"), o.out());
    }

    @Test
    void theMavenWrapperAlsoSaysSoWithoutAJdk25() throws Exception {
        Path jdk17 = fakeJdk("jdk17", 17);
        Path repo = scratchRepo();
        Files.copy(Path.of("mvnw"), repo.resolve("mvnw"));
        ProcessBuilder pb = new ProcessBuilder("sh", repo.resolve("mvnw").toString(), "-v");
        pb.environment().clear();
        pb.environment().putAll(Map.of("JAVA_HOME", jdk17.toString(), "PAGEFABRIC_JDK_FALLBACK",
                tmp.resolve("none").toString(), "PATH", jdk17.resolve("bin") + ":/usr/bin:/bin"));
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mvnw hung");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(2, p.exitValue(), err);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("mvnw: no JDK 25 found"), err);
    }

    @Test
    void javaHomeWinsOverThePath() throws Exception {
        Path home = fakeJdk("home25", 26);
        Path path25 = fakeJdk("path25", 25);
        Outcome o = launch(scratchRepo(), Map.of("JAVA_HOME", home.toString(),
                "PAGEFABRIC_JDK_FALLBACK", tmp.resolve("none").toString(), "PATH", path25.resolve("bin") + ":/usr/bin:/bin"));
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("fake-java-26 "), o.out());
    }
}
