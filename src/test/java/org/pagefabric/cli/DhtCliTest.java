package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hashtable experiments end to end: reproduce runs them, whatever the thread count gives the same rows. */
class DhtCliTest {
    @Test
    void activeMessagesLostOnALossyFabricEndTheRunUnverifiedInsteadOfPollingForEver() {
        for (String scheme : new String[] {"am", "am-exp"}) {
            CliTest.Result r = CliTest.run("run", "dht-insert", "--scheme", scheme, "--policy", "pin-all", "--profile",
                    "aa-crayxe6", "--sizes", "8", "--iterations", "20", "--set", "processes=8", "--set",
                    "processes_per_node=4", "--set", "volume_elements=4096", "--set", "link.loss=0.05", "--format", "csv");
            assertEquals(1, r.code(), scheme + ": " + r.err());
            assertTrue(r.err().startsWith("NOT VERIFIED: 1 of 1 rows failed"), r.err());
        }
    }

    @Test
    void remoteAtomicsWhoseRepliesALossyFabricDroppedEndTheRunUnverifiedNotDeadlocked() {
        CliTest.Result r = CliTest.run("run", "dht-insert", "--scheme", "rma", "--policy", "pin-all", "--profile",
                "aa-crayxe6", "--sizes", "8", "--iterations", "20", "--set", "processes=8", "--set",
                "processes_per_node=4", "--set", "volume_elements=4096", "--set", "link.loss=0.05", "--format", "csv");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith("NOT VERIFIED: 1 of 1 rows failed"), r.err());
        assertTrue(r.err().contains("unreliable datagrams were lost or corrupted on the way and"), r.err());
        assertTrue(!r.err().contains("deadlock") && !r.err().contains("Exception"), r.err());
    }

    @Test
    void aSearchWhoseCandidateLosesDataEndsWithThatCandidatesUnverifiedRow() {
        CliTest.Result r = CliTest.run("run", "dht-insert", "--scheme", "am-onload", "--policy", "pin-all", "--profile",
                "aa-crayxe6", "--sizes", "8", "--iterations", "20", "--set", "processes=8", "--set", "processes_per_node=4",
                "--set", "volume_elements=4096", "--set", "onload_cores=0", "--set", "link.loss=0.6", "--format", "csv");
        assertEquals(1, r.code(), "a failed transfer, not bad input: " + r.err());
        assertTrue(r.err().startsWith("NOT VERIFIED: 1 of 1 rows failed"), r.err());
        assertTrue(r.err().contains("(pin-all at size_B=8: the end-to-end data check failed)"), r.err());
        assertTrue(!r.err().contains("Exception") && !r.err().contains("deadlock"), r.err());
    }

    @Test
    void fig1AndFig6dRunAndAreIdenticalOnOneOrTwoThreads(@TempDir Path dir) throws Exception {
        CliTest.Result one = CliTest.run("reproduce", "aa.fig1", "aa.fig6d", "--quick", "--threads", "1", "--out",
                dir.resolve("t1").toString());
        assertEquals(0, one.code(), one.err());
        CliTest.Result two = CliTest.run("reproduce", "aa.fig1", "aa.fig6d", "--quick", "--threads", "2", "--out",
                dir.resolve("t2").toString());
        assertEquals(0, two.code(), two.err());
        for (String id : new String[] {"aa.fig1", "aa.fig6d"}) {
            String a = Files.readString(dir.resolve("t1").resolve(id).resolve("rows.csv"));
            String b = Files.readString(dir.resolve("t2").resolve(id).resolve("rows.csv"));
            assertEquals(a, b, id);
            assertTrue(a.contains("dht-insert") && !a.contains(",false,"), id + ": every point verified\n" + a);
        }
    }

    @Test
    void elementsLargerThanAPacketAreRefusedBeforeAnyPointRuns(@TempDir Path dir) {
        Path out = dir.resolve("out");
        CliTest.Result r = CliTest.run("run", "dht-insert", "--out", out.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("", r.out(), "no point ran");
        assertTrue(r.err().startsWith("pagefabric run: size_B: 8192 B per element; valid: 8 (one word) to 4096"),
                r.err());
        assertTrue(!Files.exists(out), "nothing written");
        CliTest.Result comp = CliTest.run("run", "dht-insert", "--sizes", "8", "--set", "comp_ratio=1");
        assertEquals(2, comp.code(), comp.err());
        assertTrue(comp.err().contains("comp_ratio: 1.0 leaves no time"), comp.err());
    }

    @Test
    void benchDhtReportsEveryRankCount() {
        CliTest.Result r = CliTest.run("bench", "dht", "--ranks", "8,64", "--per-node", "4", "--inserts", "3",
                "--scheme", "am-exp");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("am-exp") && r.out().lines().count() == 3, r.out());
    }

    @Test
    void benchDhtRefusesAnUnknownPolicyInOneLine() {
        CliTest.Result r = CliTest.run("bench", "dht", "--ranks", "8", "--policy", "nope");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown policy 'nope'"), r.err());
    }

    @Test
    void benchDhtRefusesAnUnknownSchemeInOneLineNamingTheValidOnes() {
        CliTest.Result r = CliTest.run("bench", "dht", "--ranks", "8", "--scheme", "nope");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("scheme: 'nope' is not valid; valid values: rma, am, am-exp, am-onload, am-ints, aa"),
                r.err());
    }

    @Test
    void runTakesSchemesAndPairsEachWithThePoliciesThatGiveItsRegistration() {
        CliTest.Result r = CliTest.run("run", "dht-insert", "--scheme", "rma", "--scheme", "aa", "--policy", "pin-all",
                "--policy", "aa-poll", "--profile", "aa-crayxe6", "--sizes", "8", "--iterations", "5",
                "--set", "processes=8", "--set", "processes_per_node=4", "--set", "volume_elements=256",
                "--format", "csv");
        assertEquals(0, r.code(), r.err());
        java.util.List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(1).contains(",pin-all,") && lines.get(1).contains(",rma,"), lines.get(1));
        assertTrue(lines.get(2).contains(",aa-poll,") && lines.get(2).contains(",aa,"), lines.get(2));
    }

    @Test
    void runRefusesASchemeNoGivenPolicyCanRegisterInOneLine() {
        CliTest.Result r = CliTest.run("run", "dht-insert", "--scheme", "aa", "--profile", "aa-crayxe6", "--sizes", "8");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("scheme 'aa' needs a policy with an IOMMU access log with handlers; policies"
                + " lists none (those that qualify: aa-int, aa-poll, aa-sp)"), r.err());
    }

    @Test
    void runRefusesSchemesForAWorkloadWithout() {
        CliTest.Result r = CliTest.run("run", "pingpong", "--scheme", "rma", "--sizes", "8");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("workload 'pingpong' runs no scheme"), r.err());
    }
}
