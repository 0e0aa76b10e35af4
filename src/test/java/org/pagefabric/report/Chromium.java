package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's headless Chromium, driven from the command line to screenshot or serialise a page.
 *
 * <p>The background-networking flags matter: on the closed build network Chromium otherwise tries to
 * reach its update and sync services and its connections are refused. Each run gets a fresh profile
 * directory so no state leaks between runs.
 */
final class Chromium {
    private static final Path DEBIAN = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_S = 120;

    private final Path binary;
    private final Path work;

    private Chromium(Path binary, Path work) {
        this.binary = binary;
        this.work = work;
    }

    /**
     * The browser, installed with apt-get first when it is missing and the tests run as root (the CI
     * machine and the development containers). Without it the test fails under CI=true, because a
     * silently skipped browser test would let a broken report through, and is skipped (visibly) elsewhere.
     */
    static Chromium find(Path work) throws IOException, InterruptedException {
        Path found = locate();
        if (found == null && "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            Process p = new ProcessBuilder("bash", "-c",
                    "apt-get update -qq && apt-get install -y -qq chromium")
                    .redirectErrorStream(true).redirectOutput(work.resolve("apt.log").toFile()).start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
            }
            found = locate();
        }
        if (found == null) {
            String message = "chromium not found at " + DEBIAN + " or on PATH, and it could not be installed "
                    + "(apt-get install -y chromium as root); the headless-browser test of the HTML report needs it";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort(message);
        }
        return new Chromium(found, work);
    }

    private static Path locate() {
        if (Files.isExecutable(DEBIAN)) {
            return DEBIAN;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, "chromium");
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Screenshots the page at {@code file} into a PNG of the window size and returns its path. */
    Path screenshot(Path page, String name, int width, int height) throws IOException, InterruptedException {
        Path png = work.resolve(name + ".png");
        run(name, List.of("--screenshot=" + png, "--window-size=" + width + "," + height, page.toUri().toString()));
        if (!Files.isRegularFile(png)) {
            fail("chromium wrote no screenshot for " + page + "; see " + work.resolve(name + ".log"));
        }
        return png;
    }

    /** The DOM Chromium built from the page, serialised after parsing and layout. */
    String dumpDom(Path page) throws IOException, InterruptedException {
        return run("dom", List.of("--dump-dom", page.toUri().toString()));
    }

    /**
     * What the page wrote to the browser's console while it loaded and was laid out (a script's
     * errors and warnings, a blocked or refused load), one line each; empty for a quiet page.
     */
    List<String> console(Path page) throws IOException, InterruptedException {
        run("console", List.of("--enable-logging=stderr", "--v=0", "--dump-dom", page.toUri().toString()));
        return Files.readAllLines(work.resolve("console.log"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(":CONSOLE")).toList();
    }

    private String run(String name, List<String> args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "profile-");
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + profile));
        command.addAll(args);
        Path out = work.resolve(name + ".out");
        Path log = work.resolve(name + ".log");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            fail("chromium did not finish within " + TIMEOUT_S + " s: " + String.join(" ", command));
        }
        if (p.exitValue() != 0) {
            fail("chromium exited with " + p.exitValue() + ": " + Files.readString(log, StandardCharsets.UTF_8));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
