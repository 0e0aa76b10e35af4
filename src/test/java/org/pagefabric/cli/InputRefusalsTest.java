package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile profiles, specs and {@code --set} values through the command line, in process: each is
 * refused when it is read, with exit code 2 and a first line that names the file (and line) and
 * the field at fault and says what is valid; never a stack trace, a class name or a hang.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InputRefusalsTest {
    private static final String HEAD = "name: bad\ndescription: a hostile profile\nparameters:\n";

    @TempDir
    Path dir;

    static Stream<Arguments> badProfiles() {
        return Stream.of(
            Arguments.of("cores beyond any machine", HEAD + "  cpu.cores: {value: 1e12, source: \"assumed: x\"}\n",
                "bad.yaml:4: cpu.cores.value: 1e12 is out of range; valid: 1 to 1024"),
            Arguments.of("a memory of one byte", HEAD + "  memory.size: {value: 1, unit: B, source: \"assumed: x\"}\n",
                "bad.yaml:4: memory.size.value: 1 B is out of range; valid: 1 MiB to 4096 GiB"),
            Arguments.of("a vanishing bandwidth",
                HEAD + "  link.bandwidth: {value: 1e-300, unit: Gbps, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.bandwidth.value: 1e-300 Gbps is out of range; valid: 1 Kbps to 1000000 GB/s"),
            Arguments.of("an MTU of 2^63-1 bytes",
                HEAD + "  transport.mtu: {value: 9223372036854775807, unit: B, source: \"assumed: x\"}\n",
                "bad.yaml:4: transport.mtu.value: 9223372036854775807 B is out of range; valid: 64 B to 64 KiB"),
            Arguments.of("YAML's NaN", HEAD + "  link.latency: {value: .nan, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: '.nan' is not a finite number; write a decimal number such as 150,"
                    + " 2.33 or 1e-3"),
            Arguments.of("YAML's infinity", HEAD + "  link.latency: {value: .inf, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: '.inf' is not a finite number; write a decimal number such as 150,"
                    + " 2.33 or 1e-3"),
            Arguments.of("an Arabic-Indic digit",
                HEAD + "  transport.mtu: {value: \u0668, unit: KiB, source: \"assumed: x\"}\n",
                "bad.yaml:4: transport.mtu.value: '\u0668' is not a number: only the ASCII digits 0-9 are; write a"
                    + " decimal number such as 150, 2.33 or 1e-3"),
            Arguments.of("an exponent no double holds",
                HEAD + "  link.latency: {value: 1e2147483647, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: '1e2147483647' has an exponent beyond 999; write a decimal number"
                    + " such as 150, 2.33 or 1e-3"),
            Arguments.of("a tiny fraction of a picosecond",
                HEAD + "  link.latency: {value: 1e-900, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: 1e-900 us must be a whole number of ps (got 1E-894)"),
            Arguments.of("an alias", "name: bad\ndescription: &d text\nparameters:\n"
                    + "  link.latency: {value: 1, unit: us, source: *d}\n",
                "bad.yaml:2: the anchor &d is not supported; write values out, without anchors and aliases"),
            Arguments.of("a mapping as a mapping key", HEAD + "  ? {a: 1}\n  : {value: 1, unit: us}\n",
                "bad.yaml:4:6: not valid YAML: a mapping key must be a single value, not a list or mapping"),
            Arguments.of("an explicit tag", HEAD + "  link.latency: {value: !!str 1, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: the explicit tag tag:yaml.org,2002:str is not supported; write plain values (quote a"
                    + " text that looks like a number)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badProfiles")
    void aBadProfileIsRefusedWhenRead(String what, String yaml, String message) throws IOException {
        Path f = Files.writeString(dir.resolve("bad.yaml"), yaml);
        refused(dir + "/" + message, "run", "latency", "--sizes", "8", "--iterations", "1", "--profile", f.toString());
    }

    static Stream<Arguments> badSets() {
        return Stream.of(
            Arguments.of("cpu.cores=1e12", "--set: cpu.cores: 1e12 is out of range; valid: 1 to 1024"),
            Arguments.of("memory.size=1 B", "--set: memory.size: 1 B is out of range; valid: 1 MiB to 4096 GiB"),
            Arguments.of("link.bandwidth=1e-300 Gbps",
                "--set: link.bandwidth: 1e-300 Gbps is out of range; valid: 1 Kbps to 1000000 GB/s"),
            Arguments.of("transport.mtu=9223372036854775807 B",
                "--set: transport.mtu: 9223372036854775807 B is out of range; valid: 64 B to 64 KiB"),
            Arguments.of("link.latency=NaN us", "--set: link.latency: 'NaN us' is not a finite number; write a decimal"
                + " number such as 150, 2.33 or 1e-3"));
    }

    @ParameterizedTest(name = "--set {0}")
    @MethodSource("badSets")
    void aBadSetIsRefusedBeforeAnyPointRuns(String set, String message) {
        refused(message, "run", "latency", "--sizes", "8", "--iterations", "1", "--set", set);
    }

    @Test
    void aRunLongerThanTheSimulatedClockIsBadInputNamingItsPoint() {
        // 1 GiB over a 1 Kbps link takes 99 days; with the pipeline's other stages, past the 107 of the clock
        refused("point 0 (size_B=1073741824 iterations=1 link.bandwidth=1Kbps policy=pin-all rep=0): the run would last"
                + " beyond the simulated clock's range of 107 days", "run", "latency", "--sizes", "1G", "--iterations", "1",
                "--set", "link.bandwidth=1Kbps");
    }

    @Test
    void aValueTheHardwareCannotTakeIsBadInputNamingItsPoint() {
        refused("point 0 (size_B=64 iterations=1 pcie.latency=300ns policy=pin-all rep=0): --set: pcie.latency: 300 ns"
                + " leaves the host completer no part of pcie.round_trip (600 ns), which two of it and 14.219 ns of"
                + " serialization exceed; valid: 0 to 292.89 ns (profile pciebench-bdw-nfp6000)",
                "run", "dma-reads", "--sizes", "64", "--iterations", "1", "--profile", "pciebench-bdw-nfp6000",
                "--set", "pcie.latency=300ns");
    }

    @Test
    void aDirectoryAFifoOrADeviceIsNoProfile() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub.yaml"));
        refused(sub + ": is a directory; give a YAML file", "run", "latency", "--sizes", "8", "--profile", sub.toString());
        refused("/dev/zero: is not a regular file (a FIFO, device or socket); give a YAML file",
                "run", "latency", "--sizes", "8", "--profile", "/dev/zero");
        Path fifo = fifo("pipe.yaml");
        refused(fifo + ": is not a regular file (a FIFO, device or socket); give a YAML file",
                "run", "latency", "--sizes", "8", "--profile", fifo.toString());
    }

    @Test
    void anExtendsCycleThroughDotPathsIsFoundAtOnce() throws IOException {
        Files.writeString(dir.resolve("a.yaml"), "name: a\ndescription: d\nextends: ./b.yaml\n");
        Files.writeString(dir.resolve("b.yaml"), "name: b\ndescription: d\nextends: ./a.yaml\n");
        refused(dir.resolve("b.yaml") + ":3: extends: './a.yaml' makes an inheritance cycle: a -> b -> a",
                "run", "latency", "--sizes", "8", "--profile", dir.resolve("a.yaml").toString());
    }

    private static final String SPEC = """
            id: hostile
            title: Hostile
            workload: latency
            policies: [pin-all]
            grid:
              size_B: [8]
              iterations: 1
            """;

    static Stream<Arguments> badSpecs() {
        return Stream.of(
            Arguments.of("an id that climbs out of --out", SPEC.replace("id: hostile", "id: \"..\""),
                "spec.yaml:1: id: '..' is not a valid id; valid: up to 100 lower-case letters, digits, '.', '_' and"
                    + " '-', starting with a letter or digit (pattern [a-z0-9][a-z0-9._-]{0,99})"),
            Arguments.of("an id that is --out itself", SPEC.replace("id: hostile", "id: ."),
                "spec.yaml:1: id: '.' is not a valid id"),
            Arguments.of("an id with a slash", SPEC.replace("id: hostile", "id: a/b"),
                "spec.yaml:1: id: 'a/b' is not a valid id"),
            Arguments.of("an id with a control character", SPEC.replace("id: hostile", "id: \"a\\x01b\""),
                "spec.yaml:1: id: 'a\\u0001b' is not a valid id"),
            Arguments.of("an empty id", SPEC.replace("id: hostile", "id: \"\""),
                "spec.yaml:1: id: is empty"),
            Arguments.of("a series label that is a number", SPEC + "series_labels: {a: 1}\n",
                "spec.yaml:8: series_labels.a: must be the name of one of our series as text, not a number; quote it"
                    + " if it looks like a number"),
            Arguments.of("a NaN in a grid", SPEC + "  link.loss: [0.1, .nan]\n",
                "spec.yaml:8: grid.link.loss[1]: '.nan' is not a finite number"),
            Arguments.of("an Arabic-Indic digit in a grid", SPEC + "  transport.mtu: [\"\u0668 KiB\"]\n",
                "spec.yaml:8: grid.transport.mtu: '\u0668 KiB' is not a number"),
            Arguments.of("a grid value out of range", SPEC + "  cpu.cores: [1e12]\n",
                "spec.yaml:8: grid.cpu.cores: 1.0E12 is out of range; valid: 1 to 1024"),
            Arguments.of("an alias", SPEC.replace("iterations: 1", "iterations: &n 1") + "  window: *n\n",
                "spec.yaml:7: the anchor &n is not supported"),
            Arguments.of("a tag", SPEC.replace("iterations: 1", "iterations: !!int 1"),
                "spec.yaml:7: the explicit tag tag:yaml.org,2002:int is not supported"),
            Arguments.of("a list as a mapping key", SPEC + "  ? [a, b]\n  : 1\n",
                "spec.yaml:8: not valid YAML: a mapping key must be a single value, not a list or mapping"),
            Arguments.of("lists nested beyond any spec", SPEC + "  deep: " + "[".repeat(5000) + "]".repeat(5000)
                    + "\n", "spec.yaml:8: grid.deep[0]"),
            Arguments.of("a grid of 1e8 points", SPEC.replace("  size_B: [8]\n  iterations: 1\n", grid(4, 100)),
                "spec.yaml:5: grid: expands to 100000000 runs (100 size_B x 100 iterations x 100 link.latency x 100"
                    + " switch.hop_latency x 1 policies x 1 repetitions); at most 100000 runs per spec"),
            Arguments.of("a grid of 5e8 points", SPEC.replace("[pin-all]", "[pin-all, bounce, cache-hooks, firehose, "
                    + "transfer-only]").replace("  size_B: [8]\n  iterations: 1\n", grid(4, 100)), "spec.yaml:5: grid: "));
    }

    /** A grid of {@code axes} axes of {@code n} values each. */
    private static String grid(int axes, int n) {
        List<String> keys = List.of("size_B", "iterations", "link.latency", "switch.hop_latency");
        List<String> units = List.of("", "", " ns", " ns");
        StringBuilder b = new StringBuilder();
        for (int a = 0; a < axes; a++) {
            String unit = units.get(a);
            b.append("  ").append(keys.get(a)).append(": [").append(IntStream.rangeClosed(1, n)
                    .mapToObj(i -> "\"" + i + unit + "\"").collect(Collectors.joining(", "))).append("]\n");
        }
        return b.toString();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSpecs")
    void aBadSpecIsRefusedWhenRead(String what, String yaml, String message) throws IOException {
        Path f = Files.writeString(dir.resolve("spec.yaml"), yaml);
        refused(dir + "/" + message, "reproduce", f.toString(), "--out", dir.resolve("out").toString());
        assertFalse(Files.exists(dir.resolve("out").resolve("rows.csv")));
        assertFalse(Files.exists(dir.getParent().resolve("rows.csv")), "nothing written outside --out");
    }

    @Test
    void aSpecThatIsNotUtf8IsAnEncodingError() throws IOException {
        Path f = dir.resolve("latin1.yaml");
        Files.write(f, "id: x\ntitle: \u00e9t\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        refused(f + ": is not UTF-8 text: the byte 0xe9 at offset 13 is not valid UTF-8; save the file as UTF-8",
                "reproduce", f.toString(), "--out", dir.resolve("out").toString());
    }

    @Test
    void aDirectoryOrAFifoIsNoSpec() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub.yaml"));
        refused(sub + ": is a directory; give a YAML file", "reproduce", sub.toString(), "--out",
                dir.resolve("out").toString());
        Path fifo = fifo("spec.yaml");
        refused(fifo + ": is not a regular file (a FIFO, device or socket); give a YAML file",
                "reproduce", fifo.toString(), "--out", dir.resolve("out").toString());
    }

    private Path fifo(String name) throws IOException, InterruptedException {
        Path fifo = dir.resolve(name);
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor(), "mkfifo");
        return fifo;
    }

    /**
     * Runs the command line and checks exit code 2 and that the first line of stderr, after the
     * command's name, starts with {@code message}.
     */
    private static void refused(String message, String... args) {
        CliTest.Result r = CliTest.run(args);
        String first = r.err().lines().findFirst().orElse("").replaceFirst("^pagefabric( [a-z]+)*: (error: )?", "");
        assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.err());
        assertTrue(first.startsWith(message), "expected: " + message + "\n     got: " + first);
        List<String> leaks = new ArrayList<>();
        for (String bad : List.of("\tat ", "Exception", "snakeyaml", "For input string")) {
            if (r.err().contains(bad)) {
                leaks.add(bad);
            }
        }
        assertTrue(leaks.isEmpty(), "leaks " + leaks + ":\n" + r.err());
    }
}
