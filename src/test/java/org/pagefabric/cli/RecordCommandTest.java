package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pagefabric record}'s refusals that come before any program runs: one line each, exit 2. */
class RecordCommandTest {
    @TempDir
    Path dir;

    @Test
    void anOutNoFileCanBeWrittenInIsRefusedBeforeTheProgramRuns() {
        Path ran = dir.resolve("ran");
        CliTest.Result r = CliTest.run("record", "--out", "/proc/x.jsonl", "--", "sh", "-c", "touch " + ran);
        assertEquals(2, r.code(), r.err());
        List<String> err = r.err().lines().toList();
        assertEquals(1, err.size(), r.err());
        assertTrue(err.getFirst().matches("pagefabric record: --out /proc/x\\.jsonl: cannot write a file in /proc"
                + " \\([a-z ]+\\); the program was not run"), err.getFirst());
        assertFalse(Files.exists(ran), "the program was not run");
    }

    @Test
    void anOutThatIsADirectoryIsRefused() {
        CliTest.Result r = CliTest.run("record", "--out", dir.toString(), "--", "sh", "-c", "true");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("pagefabric record: --out " + dir + " is a directory; name the trace file to write"),
                r.err().lines().toList());
    }

    @Test
    void theProgramsOptionsWithoutDoubleDashSayWhereTheProgramGoes() {
        CliTest.Result r = CliTest.run("record", "--out", dir.resolve("t.jsonl").toString(), "mpirun", "-n", "4",
                "./app");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("pagefabric record: unknown option '-n': put the program after --, e.g. pagefabric record"
                + " --out t.jsonl -- mpirun -n 4 ./app"), r.err().lines().toList());
    }
}
