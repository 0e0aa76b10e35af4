package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * Bad specs and the exact one-line messages they must produce: file, line, field and what would
 * be valid. Each case edits one line of a valid spec, so the line numbers are those of {@link #BASE}.
 */
class SpecErrorsTest {
    /** A valid spec; line numbers in the expected messages refer to it. */
    private static final String BASE = """
            id: test.errors
            title: Errors
            workload: latency
            policies: [pin-all]
            profile: default
            seed: 1
            repetitions: 2
            grid:
              size_B: [8, 4096]
              iterations: 3
            quick:
              repetitions: 1
            metrics: [latency_us]
            plot: {x: size_B, y: latency_us, series: policy}
            reference:
              - {series: pin-all, x: 8, metric: latency_us, value: 2.0}
            """;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("unknown top-level field", "seed: 1", "colour: red",
                        "bad.yaml:6: colour: unknown field; valid fields: id, title, paper, where, requires, design_check, workload,"
                                + " policies, profile, seed, repetitions, grid, quick, metrics, plot, reference, derived,"
                                + " series_labels, expected_failures"),
                Arguments.of("unknown workload", "workload: latency", "workload: latncy",
                        "bad.yaml:3: workload: unknown workload 'latncy'; valid: " + String.join(", ", WorkloadRegistry.standard().names())),
                Arguments.of("unknown policy", "policies: [pin-all]", "policies: [pin-all, pin-none]",
                        "bad.yaml:4: policies: unknown policy 'pin-none'; valid: " + String.join(", ", PolicyRegistry.standard().names())),
                Arguments.of("policy twice", "policies: [pin-all]", "policies: [pin-all, pin-all]",
                        "bad.yaml:4: policies: 'pin-all' appears twice"),
                Arguments.of("policies not a list", "policies: [pin-all]", "policies: pin-all",
                        "bad.yaml:4: policies: must be a list, e.g. [a, b], not a text"),
                Arguments.of("unknown profile", "profile: default", "profile: part-fourth",
                        "bad.yaml:5: profile: no bundled profile named 'part-fourth'; closest: part-forth, default,"
                                + " aa-gem5 (bundled: default, part-forth, odp-connectx, firehose-myrinet, openmx-base,"
                                + " openmx-opteron265, openmx-opteron8347, openmx-xeon5435, openmx-xeon5460, aa-gem5,"
                                + " aa-crayxe6, pciebench-bdw-nfp6000, pciebench-hsw-nfp6000, pciebench-ivb-nfp6000, nprdma-connectx,"
                                + " slingshot-cassini, gpu-dmabuf-h200, efa-p5, connectx7-host, iotlbwall-icelake-cx6; or give a path to a .yaml file)"),
                Arguments.of("missing profile file", "profile: default", "profile: nowhere/p.yaml",
                        "bad.yaml:5: profile: profile file /tmp/specs/nowhere/p.yaml does not exist"),
                Arguments.of("unknown grid key", "  iterations: 3", "  link.los: 0.01",
                        "bad.yaml:10: grid.link.los: unknown grid key; workload 'latency' takes: size_B, iterations;"
                                + " closest profile parameters: link.loss, link.latency, cpu.cores"),
                Arguments.of("workload value out of range", "  size_B: [8, 4096]", "  size_B: [8, 0]",
                        "bad.yaml:9: grid.size_B: 0 is out of range; a whole number of B (or with a unit: KiB, MiB,"
                                + " GiB, KB, MB, GB) from 1 to 1073741824"),
                Arguments.of("workload value not a number", "  iterations: 3", "  iterations: many",
                        "bad.yaml:10: grid.iterations: 'many' is not a whole number; a whole number from 1 to"
                                + " 2147483583"),
                Arguments.of("sweep value twice", "  size_B: [8, 4096]", "  size_B: [8, 8]",
                        "bad.yaml:9: grid.size_B: value 8 appears twice"),
                Arguments.of("empty sweep", "  size_B: [8, 4096]", "  size_B: []",
                        "bad.yaml:9: grid.size_B: an empty list sweeps nothing; give at least one value"),
                Arguments.of("profile value out of range", "  iterations: 3", "  link.loss: \"2\"",
                        "bad.yaml:10: grid.link.loss: 2 must be a probability between 0 and 1 (or 0% and 100%)"),
                Arguments.of("profile value with a wrong unit", "  iterations: 3", "  transport.mtu: 4 KHz",
                        "bad.yaml:10: grid.transport.mtu: 'KHz' is not a size unit; valid units: B, KB, KiB, MB, MiB,"
                                + " GB, GiB"),
                Arguments.of("unknown quick field", "  repetitions: 1", "  reps: 1",
                        "bad.yaml:12: quick.reps: unknown field; valid fields: repetitions, grid"),
                Arguments.of("quick grid key", "  repetitions: 1", "  grid: {sizes: [8]}",
                        "bad.yaml:12: quick.grid.sizes: unknown grid key; workload 'latency' takes: size_B,"
                                + " iterations; closest profile parameters: os.thp, os.mmap, cpu.cores"),
                Arguments.of("repetitions zero", "repetitions: 2", "repetitions: 0",
                        "bad.yaml:7: repetitions: 0 is out of range; valid: 1 to 10000"),
                Arguments.of("seed not a number", "seed: 1", "seed: one",
                        "bad.yaml:6: seed: 'one' is not a whole number"),
                Arguments.of("unknown metric", "metrics: [latency_us]", "metrics: [latency_ms]",
                        "bad.yaml:13: metrics: unknown metric 'latency_ms'; workload 'latency' produces: latency_us,"
                                + " latency_p50_us, latency_min_us, latency_max_us, bandwidth_MBps, pinned_MiB, hit_rate_pct, setup_us,"
                                + " registration_cpu_us, packets, retransmissions, timeouts, verified, events, simulated_us, nic_energy_J,"
                                + " router_energy_J, nic_power_W, router_power_W"),
                Arguments.of("bad plot x", "plot: {x: size_B, y: latency_us, series: policy}",
                        "plot: {x: sizes, y: latency_us, series: policy}",
                        "bad.yaml:14: plot.x: 'sizes' is not a column of this experiment; valid: policy, size_B,"
                                + " iterations"),
                Arguments.of("bad plot series", "plot: {x: size_B, y: latency_us, series: policy}",
                        "plot: {x: size_B, y: latency_us, series: method}",
                        "bad.yaml:14: plot.series: 'method' is not a column of this experiment; valid: policy,"
                                + " size_B, iterations"),
                Arguments.of("bad plot y", "plot: {x: size_B, y: latency_us, series: policy}",
                        "plot: {x: size_B, y: latency, series: policy}",
                        "bad.yaml:14: plot.y: unknown metric 'latency'; workload 'latency' produces: latency_us,"
                                + " latency_p50_us, latency_min_us, latency_max_us, bandwidth_MBps, pinned_MiB, hit_rate_pct, setup_us,"
                                + " registration_cpu_us, packets, retransmissions, timeouts, verified, events, simulated_us, nic_energy_J,"
                                + " router_energy_J, nic_power_W, router_power_W"),
                Arguments.of("plot without x", "plot: {x: size_B, y: latency_us, series: policy}",
                        "plot: {y: latency_us}",
                        "bad.yaml:14: plot.x: missing; name the column on the x axis, one of: policy, size_B,"
                                + " iterations"),
                Arguments.of("bad plot flag", "plot: {x: size_B, y: latency_us, series: policy}",
                        "plot: {x: size_B, logx: yes please}",
                        "bad.yaml:14: plot.logx: 'yes please' is not a boolean; valid values: true, false"),
                Arguments.of("reference value", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us, value: n/a}",
                        "bad.yaml:16: reference[0].value: 'n/a' is not a number; write the published number, or"
                                + " withheld"),
                Arguments.of("reference field", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0, fig: 7}",
                        "bad.yaml:16: reference[0].fig: unknown field; valid fields: id, series, x, metric, value, where, kind,"
                                + " tolerance, reason, shape, order, x_min, x_max"),
                Arguments.of("reference kind", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0, kind: roughly}",
                        "bad.yaml:16: reference[0].kind: 'roughly' is not valid; valid values: measured, approximate,"
                                + " at_most, at_least"),
                Arguments.of("widened tolerance without reason", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0, tolerance: [0.5, 2]}",
                        "bad.yaml:16: reference[0].tolerance: is wider than the measured default [0.8, 1.25]; a wider"
                                + " tolerance needs reason: \"why\""),
                Arguments.of("tolerance of a bound", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0, kind: at_most, tolerance: [0.9, 1.1]}",
                        "bad.yaml:16: reference[0].tolerance: does not apply to kind at_most: the bound itself is the"
                                + " tolerance"),
                Arguments.of("tolerance not around 1", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0, tolerance: [1.1, 1.2]}",
                        "bad.yaml:16: reference[0].tolerance: [1.1, 1.2] is not valid; need 0 < low <= 1 <= high"),
                Arguments.of("shape with a value", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, metric: latency_us, shape: increasing, value: 2.0}",
                        "bad.yaml:16: reference[0].value: does not apply to a shape check; a trend has no value and no"
                                + " tolerance"),
                Arguments.of("unknown shape", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, metric: latency_us, shape: flat}",
                        "bad.yaml:16: reference[0].shape: 'flat' is not valid; valid values: increasing, decreasing,"
                                + " positive, negative, ranked"),
                Arguments.of("ranking without order", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {x: 8, metric: latency_us, shape: ranked}",
                        "bad.yaml:16: reference[0].order: missing; a reference needs metric, order for shape ranked"),
                Arguments.of("reference id", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {id: Fig-1, series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "bad.yaml:16: reference[0].id: 'Fig-1' is not valid; an id is lower-case letters, digits and _"),
                Arguments.of("reference without value", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: latency_us}",
                        "bad.yaml:16: reference[0].value: missing; a reference needs series, metric, value (a"
                                + " number, or withheld)"),
                Arguments.of("reference metric", "  - {series: pin-all, x: 8, metric: latency_us, value: 2.0}",
                        "  - {series: pin-all, x: 8, metric: lat, value: 2.0}",
                        "bad.yaml:16: reference[0].metric: unknown metric 'lat'; workload 'latency' produces:"
                                + " latency_us, latency_p50_us, latency_min_us, latency_max_us, bandwidth_MBps,"
                                + " pinned_MiB, hit_rate_pct, setup_us, registration_cpu_us, packets, retransmissions, timeouts, verified, events,"
                                + " simulated_us, nic_energy_J, router_energy_J, nic_power_W, router_power_W"),
                Arguments.of("missing title", "title: Errors\n", "",
                        "bad.yaml:1: title: missing; every spec needs id, title, workload and policies"),
                Arguments.of("bad id", "id: test.errors", "id: Test Errors",
                        "bad.yaml:1: id: 'Test Errors' is not a valid id; valid: up to 100 lower-case letters,"
                                + " digits, '.', '_' and '-', starting with a letter or digit (pattern"
                                + " [a-z0-9][a-z0-9._-]{0,99})"),
                Arguments.of("bad paper", "seed: 1", "paper: 7",
                        "bad.yaml:6: paper: '7' is not a seed id; write three digits in quotes, e.g. \"000\""),
                Arguments.of("key twice", "seed: 1", "seed: 1\nseed: 2",
                        "bad.yaml:7: seed: appears twice"),
                Arguments.of("broken YAML", "policies: [pin-all]", "policies: [pin-all",
                        "bad.yaml:5: not valid YAML: while parsing a flow sequence: expected ',' or ']', but got :"),
                Arguments.of("derived with both over and over_x", "seed: 1", "seed: 1\nderived:\n"
                                + "  - {name: r, metric: latency_us, series: pin-all, over: [pin-all], over_x: 8}",
                        "bad.yaml:8: derived[0].over: give exactly one of over (a list of series) and over_x (an x"
                                + " value)"),
                Arguments.of("derived with a bad pick", "seed: 1", "seed: 1\nderived:\n"
                                + "  - {name: r, metric: latency_us, series: pin-all, over: [pin-all], pick: best}",
                        "bad.yaml:8: derived[0].pick: 'best' is not valid; valid values: min, max"),
                Arguments.of("derived named like a metric", "seed: 1", "seed: 1\nderived:\n"
                                + "  - {name: latency_us, metric: latency_us, series: pin-all, over: [pin-all]}",
                        "bad.yaml:8: derived[0].name: 'latency_us' is already a metric; a derived metric needs a name"
                                + " of its own"),
                Arguments.of("derived with an unknown field", "seed: 1", "seed: 1\nderived:\n"
                                + "  - {name: r, metric: latency_us, series: pin-all, over: [pin-all], colour: red}",
                        "bad.yaml:8: derived[0].colour: unknown field; valid fields: name, metric, series, over, over_x,"
                                + " pick, x_max, at_crossing, as"),
                Arguments.of("derived with a bad form", "seed: 1", "seed: 1\nderived:\n"
                                + "  - {name: r, metric: latency_us, series: pin-all, over: [pin-all], as: percent}",
                        "bad.yaml:8: derived[0].as: 'percent' is not valid; valid values: ratio, pct_change, pct_loss"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void badSpecNamesFileLineFieldAndValidValues(String what, String line, String replacement, String message) {
        assertTrue(BASE.contains(line), "test case edits a line of BASE: " + line);
        String text = BASE.replace(line, replacement);
        SpecException e = assertThrows(SpecException.class,
                () -> SpecReader.parse("bad.yaml", text, Path.of("/tmp/specs")));
        assertEquals(message, e.getMessage());
    }

    @Test
    void theBaseSpecIsValid() {
        assertEquals("test.errors", SpecReader.parse("bad.yaml", BASE, Path.of("/tmp/specs")).id());
    }

    @Test
    void fieldsAndLineAreAvailableSeparately() {
        SpecException e = assertThrows(SpecException.class, () -> SpecReader.parse("bad.yaml",
                BASE.replace("workload: latency", "workload: latncy"), Path.of(".")));
        assertEquals("bad.yaml", e.file());
        assertEquals(3, e.line());
        assertEquals("workload", e.field());
        assertEquals("unknown workload 'latncy'; valid: " + String.join(", ", WorkloadRegistry.standard().names()), e.problem());
    }

    @Test
    void emptyAndNonMappingFiles() {
        assertEquals("empty.yaml: the file is empty; a spec is a mapping with fields id, title, paper, where,"
                        + " requires, design_check, workload, policies, profile, seed, repetitions, grid, quick, metrics, plot,"
                        + " reference, derived, series_labels, expected_failures",
                assertThrows(SpecException.class, () -> SpecReader.parse("empty.yaml", "", Path.of(".")))
                        .getMessage());
        assertEquals("list.yaml:1: a spec is a mapping with fields id, title, paper, where, requires, design_check, workload,"
                        + " policies, profile, seed, repetitions, grid, quick, metrics, plot, reference, derived,"
                        + " series_labels, expected_failures, not a list",
                assertThrows(SpecException.class, () -> SpecReader.parse("list.yaml", "- a\n- b\n", Path.of(".")))
                        .getMessage());
    }

    @Test
    void missingSpecFile() {
        assertEquals("/no/such/spec.yaml: spec file does not exist", assertThrows(SpecException.class,
                () -> SpecReader.read(Path.of("/no/such/spec.yaml"))).getMessage());
    }

    @Test
    void unknownBundledIdSaysSo() {
        SpecException e = assertThrows(SpecException.class, () -> SpecReader.bundled("no.such.experiment"));
        assertTrue(e.getMessage().startsWith("(command line): no bundled experiment 'no.such.experiment'"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("; or give a path to a .yaml spec"), e.getMessage());
    }

    @Test
    void badSetValuesNameTheOption() {
        ExperimentSpec spec = SpecReader.parse("bad.yaml", BASE, Path.of("."));
        assertEquals("--set: sizes: unknown grid key; workload 'latency' takes: size_B, iterations; closest profile"
                        + " parameters: os.thp, os.mmap, cpu.cores",
                assertThrows(SpecException.class, () -> Grid.effective(spec, false, Map.of("sizes", "8")))
                        .getMessage());
        assertEquals("--set: size_B: '4 KHz' is not a whole number; a whole number of B (or with a unit: KiB, MiB,"
                        + " GiB, KB, MB, GB) from 1 to 1073741824",
                assertThrows(SpecException.class, () -> Grid.effective(spec, false, Map.of("size_B", "4 KHz")))
                        .getMessage());
        assertEquals("--set: link.loss: 150 % must be a probability between 0 and 1 (or 0% and 100%)",
                assertThrows(SpecException.class, () -> Grid.effective(spec, false, Map.of("link.loss", "150%")))
                        .getMessage());
        Map<String, String> reps = new LinkedHashMap<>();
        reps.put("repetitions", "0");
        assertEquals("--set: repetitions: '0' is not valid; a whole number from 1 to 10000",
                assertThrows(SpecException.class, () -> Grid.effective(spec, false, reps)).getMessage());
    }
}
