package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table of malformed profiles and the exact one-line message each must produce: the file, the
 * line (and column where the parser gives one), the field, and what would be valid.
 */
class ProfileErrorsTest {
    private static final String HEAD = "name: bad\ndescription: a broken profile\nparameters:\n";

    @TempDir
    Path dir;

    static Stream<Arguments> badProfiles() {
        return Stream.of(
            Arguments.of("unknown parameter suggests the closest names",
                HEAD + "  link.latncy: {value: 1, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4:3: link.latncy: unknown parameter; closest known: link.latency, link.loss, pcie.latency"),
            Arguments.of("wrong unit lists the dimension's units",
                HEAD + "  link.latency: {value: 1, unit: Gb, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.unit: 'Gb' is not a time unit; valid units: ps, ns, us, ms, s"),
            Arguments.of("a missing unit lists the valid ones",
                HEAD + "  link.bandwidth: {value: 10, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.bandwidth.unit: a unit is needed; valid units: bps, b/s, Kbps, Kb/s, Mbps, Mb/s,"
                    + " Gbps, Gb/s, B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s"),
            Arguments.of("a unit on a count",
                HEAD + "  iommu.iotlb.l1.entries: {value: 128, unit: entries, source: \"assumed: x\"}\n",
                "bad.yaml:4: iommu.iotlb.l1.entries.unit: 'entries' is not a count unit; valid units: (none)"),
            Arguments.of("bad number",
                HEAD + "  link.latency: {value: 1.5.2, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: '1.5.2' is not a number; write a decimal number such as 150, 2.33 or 1e-3"),
            Arguments.of("missing source",
                HEAD + "  link.latency: {value: 1, unit: us}\n",
                "bad.yaml:4:3: link.latency: the source is missing; every value needs one: a seed citation like"
                    + " \"000 §III-A: the R5 co-processor adds about 3 us\", or \"published: <document, file or line>:"
                    + " <what it states>\", or \"assumed: <reason>\", or"
                    + " \"measured: <host and method>\", or \"fitted: <experiment>#<reference id> by <how>\""),
            Arguments.of("a source that cites nothing",
                HEAD + "  link.latency: {value: 1, unit: us, source: \"from the paper\"}\n",
                "bad.yaml:4:3: link.latency.source: 'from the paper' says nowhere where the value comes from; write"
                    + " a seed citation like \"000 §III-A: the R5 co-processor adds about 3 us\", or"
                    + " \"published: <document, file or line>: <what it states>\","
                    + " or \"assumed: <reason>\", or \"measured: <host and method>\", or \"fitted: <experiment>#<reference"
                    + " id> by <how>\""),
            Arguments.of("missing value",
                HEAD + "  link.latency: {unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4:3: link.latency: the value is missing; write it as {value: 150, unit: ns, source: \"000 §V: ...\"}"),
            Arguments.of("short form without a source",
                HEAD + "  link.latency: 4 us\n",
                "bad.yaml:4:17: link.latency: a bare text has no unit and no source; write it as"
                    + " {value: 150, unit: ns, source: \"000 §V: ...\"}"),
            Arguments.of("unknown field in a setting",
                HEAD + "  link.latency: {value: 1, unit: us, source: \"assumed: x\", note: y}\n",
                "bad.yaml:4:60: link.latency.note: unknown field; valid fields: value, unit, source, range"),
            Arguments.of("unknown top-level field",
                HEAD + "  link.latency: {value: 1, unit: us, source: \"assumed: x\"}\nparams: {}\n",
                "bad.yaml:5:1: params: unknown field; valid fields: name, description, extends, parameters"),
            Arguments.of("parameter set twice",
                HEAD + "  link.latency: {value: 1, unit: us, source: \"assumed: x\"}\n"
                    + "  link.latency: {value: 2, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:5:3: link.latency: is set twice in this file"),
            Arguments.of("negative time",
                HEAD + "  link.latency: {value: -1, unit: us, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: -1 us must not be negative"),
            Arguments.of("fraction of a picosecond",
                HEAD + "  link.latency: {value: 0.5, unit: ps, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.latency.value: 0.5 ps must be a whole number of ps (got 0.5)"),
            Arguments.of("page size in SI kilobytes is not a power of two",
                HEAD + "  memory.page_size: {value: 8, unit: KB, source: \"assumed: x\"}\n",
                "bad.yaml:4: memory.page_size.value: 8 KB must be a power of two (got 8000 B; KB and MB are powers of"
                    + " 1000, KiB and MiB powers of 1024)"),
            Arguments.of("zero bandwidth",
                HEAD + "  link.bandwidth: {value: 0, unit: Gbps, source: \"assumed: x\"}\n",
                "bad.yaml:4: link.bandwidth.value: 0 Gbps must be greater than zero"),
            Arguments.of("probability above one",
                HEAD + "  link.loss: {value: 120, unit: \"%\", source: \"assumed: x\"}\n",
                "bad.yaml:4: link.loss.value: 120 % must be a probability between 0 and 1 (or 0% and 100%)"),
            Arguments.of("bad choice",
                HEAD + "  iommu.iotlb.eviction: {value: fifo, source: \"assumed: x\"}\n",
                "bad.yaml:4: iommu.iotlb.eviction.value: 'fifo' is not a valid choice; valid values: lru, random"),
            Arguments.of("bad boolean",
                HEAD + "  transport.selective_retransmission: {value: yes please, source: \"assumed: x\"}\n",
                "bad.yaml:4: transport.selective_retransmission.value: 'yes please' is not a boolean; valid values:"
                    + " true, false"),
            Arguments.of("unknown extends suggests bundled names",
                "name: bad\ndescription: d\nextends: part-fourth\nparameters: {}\n",
                "bad.yaml:3: extends: no bundled profile named 'part-fourth'; closest: part-forth, default, aa-gem5"
                    + " (bundled: default, part-forth, odp-connectx, firehose-myrinet, openmx-base, openmx-opteron265,"
                    + " openmx-opteron8347, openmx-xeon5435, openmx-xeon5460, aa-gem5, aa-crayxe6, pciebench-bdw-nfp6000,"
                    + " pciebench-hsw-nfp6000, pciebench-ivb-nfp6000, nprdma-connectx, slingshot-cassini, gpu-dmabuf-h200, efa-p5, connectx7-host, iotlbwall-icelake-cx6; or give a path to"
                    + " a .yaml file)"),
            Arguments.of("missing name",
                "description: d\nparameters: {}\n",
                "bad.yaml:1:1: name: missing; every profile needs a name"),
            Arguments.of("missing description",
                "name: bad\nparameters: {}\n",
                "bad.yaml:1:1: description: missing; say which testbed the profile describes"),
            Arguments.of("empty file",
                "",
                "bad.yaml:1:1: the file is empty; a profile is a mapping with fields name, description, extends, parameters"),
            Arguments.of("a list instead of a mapping",
                "- a\n- b\n",
                "bad.yaml:1:1: a profile is a mapping with fields name, description, extends, parameters, not a list"),
            Arguments.of("malformed YAML",
                HEAD + "  link.latency: {value: 1, unit: us\n",
                "bad.yaml:5:1: not valid YAML: while parsing a flow mapping (started at line 4, column 17): expected ',' or '}',"
                    + " but got <stream end>"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badProfiles")
    void malformedProfileGivesOneClearMessage(String what, String yaml, String message) {
        Path f = ProfileTestFiles.write(dir, "bad.yaml", yaml);
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(f));
        assertEquals(message, e.getMessage().replace(dir.toString() + "/", ""));
    }

    @Test
    void anInheritanceCycleNamesEveryProfileInIt() {
        ProfileTestFiles.write(dir, "a.yaml", "name: a\ndescription: d\nextends: b.yaml\n");
        ProfileTestFiles.write(dir, "b.yaml", "name: b\ndescription: d\nextends: a.yaml\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(dir.resolve("a.yaml")));
        assertEquals("b.yaml:3: extends: 'a.yaml' makes an inheritance cycle: a -> b -> a",
                e.getMessage().replace(dir.toString() + "/", ""));
        assertEquals("extends", e.field());
        assertEquals(3, e.line());
    }

    @Test
    void aProfileExtendingItselfIsACycle() {
        ProfileTestFiles.write(dir, "self.yaml", "name: self\ndescription: d\nextends: self.yaml\n");
        ProfileException e = assertThrows(ProfileException.class,
                () -> ProfileRegistry.loadFile(dir.resolve("self.yaml")));
        assertEquals("self.yaml:3: extends: 'self.yaml' makes an inheritance cycle: self -> self",
                e.getMessage().replace(dir.toString() + "/", ""));
    }

    @Test
    void aMissingParentFileNamesTheExtendingFile() {
        ProfileTestFiles.write(dir, "c.yaml", "name: c\ndescription: d\nextends: nowhere.yaml\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(dir.resolve("c.yaml")));
        assertEquals("c.yaml:3: extends: profile file nowhere.yaml does not exist",
                e.getMessage().replace(dir.toString() + "/", ""));
    }

    @Test
    void anUnknownBundledNameOnTheCommandLine() {
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.resolve("odp-conectx"));
        assertEquals(true, e.getMessage().startsWith(
                "(command line): no bundled profile named 'odp-conectx'; closest: odp-connectx"), e.getMessage());
    }

    @Test
    void aRootThatDoesNotSetEveryParameterIsRejected() {
        Path f = ProfileTestFiles.write(dir, "default.yaml", "name: default\ndescription: d\nparameters:\n"
                + "  link.latency: {value: 1, unit: us, source: \"assumed: x\"}\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(f));
        assertEquals(true, e.getMessage().contains("the root profile 'default' sets no value for "
                + (ParameterRegistry.all().stream().filter(p -> p.defaultValue() == null).count() - 1) + " parameter(s): aa.access_log.size, "), e.getMessage());
    }

    @Test
    void profileErrorsAreIllegalArgumentsSoTheCliExitsWithUsageStatus() {
        assertEquals(IllegalArgumentException.class, ProfileException.class.getSuperclass());
    }
}
