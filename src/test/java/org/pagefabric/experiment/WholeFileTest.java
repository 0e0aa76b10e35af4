package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A result file written whole is an ordinary file: its bytes, readable by all, no temporary left. */
class WholeFileTest {
    @TempDir
    Path dir;

    @Test
    void aResultFileIsWholeReadableByAllAndLeavesNoTemporaryFile() throws IOException {
        Path file = dir.resolve("sub/rows.csv");
        WholeFile.write(file, "a,b\n1,2\n");
        assertEquals("a,b\n1,2\n", Files.readString(file));
        // the temporary file it was written under is private; the result must not stay so
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (var files = Files.list(file.getParent())) {
            assertEquals(List.of(file), files.toList());
        }
        WholeFile.write(file, "c\n");
        assertTrue(Files.readString(file).equals("c\n"), "a second write replaces the first");
    }
}
