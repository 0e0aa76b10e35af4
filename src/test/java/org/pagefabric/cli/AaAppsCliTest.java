package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Active Access application experiments end to end, identical on one or two threads. */
class AaAppsCliTest {
    @Test
    void fig7dFig9aFig9bRunVerifiedAndIdenticalOnOneOrTwoThreads(@TempDir Path dir) throws Exception {
        String[] ids = {"aa.fig7d", "aa.fig9a", "aa.fig9b"};
        for (String threads : new String[] {"1", "2"}) {
            CliTest.Result r = CliTest.run("reproduce", ids[0], ids[1], ids[2], "--quick", "--threads", threads,
                    "--out", dir.resolve("t" + threads).toString());
            assertEquals(0, r.code(), r.err());
        }
        for (String id : ids) {
            String a = Files.readString(dir.resolve("t1").resolve(id).resolve("rows.csv"));
            String b = Files.readString(dir.resolve("t2").resolve(id).resolve("rows.csv"));
            assertEquals(a, b, id);
            assertTrue(!a.contains(",false,") && a.lines().count() >= 5, id + ": every point verified\n" + a);
        }
    }
}
