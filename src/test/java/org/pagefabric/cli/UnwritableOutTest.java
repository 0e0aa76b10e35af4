package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code --out} where nothing can be written is refused before anything runs, for every
 * command that writes results: a pseudo-file system ({@code /proc}, {@code /sys}) accepts a
 * superuser's permission check but no new file, so only creating one tells.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnwritableOutTest {
    /** Each command that takes {@code --out}, with the arguments that would otherwise run it. */
    private static List<List<String>> commands(String out) {
        return List.of(
                List.of("run", "latency", "--sizes", "8", "--iterations", "1", "--out", out),
                List.of("compare", "latency", "--sizes", "8", "--iterations", "1", "--out", out),
                List.of("reproduce", "omx.table1", "--quick", "--out", out),
                List.of("fit", "odp.fault", "--param", "odp.fault.resume=50us..200us", "--target", "fault_4k",
                        "--set", "size_B=4096", "--out", out + "/fitted.yaml"),
                List.of("calibrate", "--quick", "--out", out + "/host.yaml"),
                List.of("merge", "/nonexistent-shard", "--out", out));
    }

    private static void refusedEverywhere(String out) {
        for (List<String> args : commands(out)) {
            CliTest.Result r = CliTest.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.err());
            assertEquals("", r.out(), args + ": nothing ran");
            String first = r.err().lines().findFirst().orElse("");
            assertTrue(first.contains("--out") && first.contains(out), args + ": " + r.err());
            assertTrue(r.err().lines().count() <= 2, args + ": one line and a hint: " + r.err());
            assertFalse(r.err().contains("Exception"), args + ": " + r.err());
        }
    }

    @Test
    void procAndSysAreRefused() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")) && Files.isDirectory(Path.of("/sys/kernel")),
                "needs Linux's /proc and /sys");
        refusedEverywhere("/proc/pf-out");
        refusedEverywhere("/sys/kernel/pf-out");
        refusedEverywhere("/proc");
        assertFalse(Files.exists(Path.of("/proc/pf-out")));
    }

    @Test
    void aReadOnlyMountIsRefused(@TempDir Path dir) throws Exception {
        Path mnt = dir.resolve("ro");
        Files.createDirectories(mnt);
        Assumptions.assumeTrue(TinyFileSystem.mount(mnt, "ro,size=64k"),
                "mounting a read-only tmpfs needs root (CAP_SYS_ADMIN); a non-root user's read-only directory"
                        + " is covered by the permission check");
        try {
            refusedEverywhere(mnt.toString());
            refusedEverywhere(mnt.resolve("below").toString());
        } finally {
            TinyFileSystem.unmount(mnt);
        }
    }

    @Test
    void aCheckLeavesTheDirectoriesButNoProbe(@TempDir Path dir) throws Exception {
        OutputPaths.directory("--out", dir.resolve("a/b/c"));
        OutputPaths.file("--out", dir.resolve("d/e/f.yaml"));
        // another command may be writing there already: what a check made stays
        assertTrue(Files.isDirectory(dir.resolve("a/b/c")));
        assertTrue(Files.isDirectory(dir.resolve("d/e")));
        assertFalse(Files.exists(dir.resolve("d/e/f.yaml")));
        try (var left = Files.list(dir.resolve("a/b/c")); var leftFile = Files.list(dir.resolve("d/e"))) {
            assertEquals(0, left.count() + leftFile.count(), "no probe file left");
        }
    }

    @Test
    void checksOfOneNewDirectoryRunningTogetherAllSucceed(@TempDir Path dir) throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 300; round++) {
                // a new directory each round, below a new parent: the checks both create and probe
                Path out = dir.resolve("r" + round).resolve("results");
                Path file = dir.resolve("f" + round).resolve("fitted.yaml");
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> checks = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    boolean asFile = t % 2 == 1;
                    checks.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        if (asFile) {
                            OutputPaths.file("--out", file);
                        } else {
                            OutputPaths.directory("--out", out);
                        }
                        return null;
                    }));
                }
                for (Future<?> c : checks) {
                    try {
                        c.get(20, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        throw new AssertionError("round " + round + ": " + e.getCause().getMessage(), e.getCause());
                    }
                }
                assertTrue(Files.isDirectory(out), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
