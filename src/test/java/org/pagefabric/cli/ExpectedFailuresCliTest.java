package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows a spec expects to fail (x.limits' RLIMIT_MEMLOCK and vm.max_map_count runs) are outcomes,
 * not failures: {@code reproduce} exits 0 when exactly those fail with their reason, and 1, naming
 * the rows, when another row fails or an expected failure does not happen.
 */
class ExpectedFailuresCliTest {
    @TempDir
    Path dir;

    private static String limits() throws IOException {
        try (InputStream in = ExpectedFailuresCliTest.class.getResourceAsStream("/experiments/x.limits.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private CliTest.Result reproduce(String spec) throws IOException {
        Path file = Files.writeString(dir.resolve("limits.yaml"), spec);
        return CliTest.run("reproduce", file.toString(), "--quick", "--out", dir.resolve("out").toString());
    }

    @Test
    void theFailuresTheSpecExpectsExitZeroAndAreSaid() {
        CliTest.Result r = CliTest.run("reproduce", "x.limits", "--quick", "--out", dir.resolve("out").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("x.limits: 1 of 8 rows failed as the spec expects (RLIMIT_MEMLOCK: 1)"), r.out());
        assertFalse(r.out().contains("NOT VERIFIED"), r.out());
    }

    @Test
    void aFailureTheSpecDoesNotExpectExitsOneAndIsNamed() throws IOException {
        String spec = limits().replaceAll("(?s)  - when: \\{policy: pin-all.*?why: [^\\n]*\\n", "");
        CliTest.Result r = reproduce(spec);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("NOT AS EXPECTED: 1 rows failed unexpectedly") && r.out().contains("policy=pin-all")
                && r.out().contains("RLIMIT_MEMLOCK"), r.out());
        assertTrue(r.err().contains("did not come out as their spec expects") && r.err().contains("x.limits"), r.err());
    }

    @Test
    void anExpectedFailureThatDoesNotHappenExitsOne() throws IOException {
        String spec = limits() + "  - when: {policy: odp-explicit}\n    reason: vm.max_map_count\n"
                + "    why: a wrong expectation\n";
        CliTest.Result r = reproduce(spec);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("2 expected to fail verified") && r.out().contains("policy=odp-explicit"), r.out());
    }

    @Test
    void aKeyThatIsNotOnTheGridIsRefusedWithTheValidOnes() throws IOException {
        CliTest.Result r = reproduce(limits().replace("when: {policy: pin-all, os.memlock_limit: 2MiB}",
                "when: {policy: pin-all, memlock: 2MiB}"));
        assertEquals(2, r.code(), r.err());
        String first = r.err().lines().findFirst().orElse("");
        assertTrue(first.contains("limits.yaml:") && first.contains("expected_failures[0].when.memlock")
                && first.contains("valid: policy, size_B"), first);
        CliTest.Result v = reproduce(limits().replace("os.memlock_limit: 2MiB}", "os.memlock_limit: 3MiB}"));
        assertEquals(2, v.code(), v.err());
        assertTrue(v.err().contains("'3MiB' is not a value of os.memlock_limit; valid: 2MiB, 256GiB"), v.err());
    }
}
