package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.WholeFile;
import org.pagefabric.experiment.WriteFailedException;

/**
 * A disk that fills while results are written leaves whole files or none: no truncated plot,
 * no manifest vouching for what is not there, exit code 1 (the run failed; the input was fine)
 * and one line naming what is missing, never an exception's name.
 */
class FullDiskTest {
    @TempDir
    Path dir;

    private Path tiny(String size) throws IOException {
        Path mnt = dir.resolve("tiny-" + size);
        Files.createDirectories(mnt);
        Assumptions.assumeTrue(TinyFileSystem.mount(mnt, "size=" + size),
                "filling a file system on purpose mounts a small tmpfs, which needs root (CAP_SYS_ADMIN)");
        return mnt;
    }

    private static void assertNoHalfFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                assertFalse(f.getFileName().toString().endsWith(".tmp"), "a temporary file is left: " + f);
                if (f.getFileName().toString().equals(ResultWriter.MANIFEST)) {
                    // a manifest is the last file written: everything it lists is there, whole
                    for (String name : List.of("rows.csv", "rows.json", "spec.resolved.yaml", "report.html")) {
                        assertTrue(Files.isRegularFile(f.resolveSibling(name)), f + " without " + name);
                    }
                }
                if (f.getFileName().toString().equals("plot.svg")) {
                    assertTrue(Files.readString(f).strip().endsWith("</svg>"), "a truncated " + f);
                }
            }
        }
    }

    private static void assertOneLineFailure(CliTest.Result r) {
        assertEquals(ExitCodes.FAILURE, r.code(), r.err());
        List<String> errors = r.err().lines().filter(l -> l.contains("error")).toList();
        assertEquals(1, errors.size(), r.err());
        assertTrue(errors.getFirst().contains("no space left on device"), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("java."), r.err());
    }

    @Test
    void aDiskThatFillsWhileResultsAreWrittenLeavesNoCompleteManifest() throws IOException {
        Path mnt = tiny("200k");
        try {
            Path out = mnt.resolve("out");
            // nothing stored per point: the rows fit, the plots and reports do not
            CliTest.Result r = CliTest.run("reproduce", "fh.fig5", "--quick", "--no-cache", "--out", out.toString());
            assertOneLineFailure(r);
            assertTrue(r.err().contains("not written in") && r.err().contains(ResultWriter.MANIFEST), r.err());
            assertNoHalfFiles(mnt);
        } finally {
            TinyFileSystem.unmount(mnt);
        }
    }

    @Test
    void aDiskThatFillsWhilePointsAreStoredEndsInOneLine() throws IOException {
        Path mnt = tiny("8k");
        try {
            Path out = mnt.resolve("out");
            // a point file takes a 4 KiB page of tmpfs: two fit, fh.fig5 has more
            CliTest.Result r = CliTest.run("reproduce", "fh.fig5", "--quick", "--out", out.toString());
            assertOneLineFailure(r);
            assertTrue(r.err().contains("cannot store a finished point"), r.err());
            assertNoHalfFiles(mnt);
        } finally {
            TinyFileSystem.unmount(mnt);
        }
    }

    @Test
    void aFailedWriteLeavesTheEarlierFileWhole() throws IOException {
        Path mnt = tiny("64k");
        try {
            Path file = mnt.resolve("kept.txt");
            WholeFile.write(file, "earlier\n");
            WriteFailedException e = org.junit.jupiter.api.Assertions.assertThrows(WriteFailedException.class,
                    () -> WholeFile.write(file, new byte[256 * 1024]));
            assertEquals("no space left on device", e.reason());
            assertEquals("earlier\n", Files.readString(file));
            try (Stream<Path> s = Files.list(mnt)) {
                assertEquals(List.of(file), s.toList(), "no temporary file is left");
            }
        } finally {
            TinyFileSystem.unmount(mnt);
        }
    }
}
