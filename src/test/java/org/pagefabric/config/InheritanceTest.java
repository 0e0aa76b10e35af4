package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.LinkParameters;
import org.pagefabric.hw.param.OsParameters;

/** default -> testbed -> user file: later files override, and each value remembers who set it. */
class InheritanceTest {
    @TempDir
    Path dir;

    @Test
    void aUserFileOverridesABundledTestbedWhichOverridesTheRoot() {
        Path f = ProfileTestFiles.write(dir, "mine.yaml", "name: mine\ndescription: d\nextends: part-forth\n"
                + "parameters:\n  switch.hop_latency: {value: 200, unit: ns, source: \"measured: my board\"}\n");
        Profile p = ProfileRegistry.resolve(f.toString());
        assertEquals(List.of("mine", "part-forth", "default"), p.chain());
        assertEquals(200_000L, p.time(LinkParameters.SWITCH_HOP_LATENCY));
        assertEquals("mine", p.setting(LinkParameters.SWITCH_HOP_LATENCY).profile());
        assertEquals(4L, p.count(CpuParameters.CORES));
        assertEquals("part-forth", p.setting(CpuParameters.CORES).profile());
        assertEquals("default", p.setting(OsParameters.MMU_NOTIFIER_INVALIDATE).profile());
        assertTrue(p.dump().contains("switch.hop_latency: {value: \"200\", unit: \"ns\", source: \"measured: my board\"}"
                + "  # mine (" + f + ":5)"), p.dump());
    }

    @Test
    void extendsMayNameAFileRelativeToTheExtendingFile() {
        ProfileTestFiles.write(dir, "base.yaml", "name: base\ndescription: d\nextends: openmx-xeon5460\n");
        Path f = ProfileTestFiles.write(dir, "top.yaml", "name: top\ndescription: d\nextends: base.yaml\n");
        Profile p = ProfileRegistry.loadFile(f);
        assertEquals(List.of("top", "base", "openmx-xeon5460", "openmx-base", "default"), p.chain());
        assertEquals(867_000L, p.time(OsParameters.PIN_BASE));
    }

    @Test
    void testbedsOmittingExtendsInheritFromDefault() {
        Path f = ProfileTestFiles.write(dir, "x.yaml", "name: x\ndescription: d\n");
        assertEquals(List.of("x", "default"), ProfileRegistry.loadFile(f).chain());
    }

    @Test
    void registryNamesAreUniqueDottedAndDocumented() {
        Set<String> names = new HashSet<>();
        for (Parameter p : ParameterRegistry.all()) {
            assertTrue(names.add(p.name()), p.name());
            assertTrue(p.name().contains("."), p.name());
            assertTrue(!p.doc().isBlank(), p.name());
        }
        assertEquals(List.of("link.latency", "link.loss", "pcie.latency"), ParameterRegistry.closestNames("link.latncy", 3));
    }
}
