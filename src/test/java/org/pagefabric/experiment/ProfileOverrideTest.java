package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileOverride;
import org.pagefabric.config.ProfileRegistry;

/** The profile override API the experiment grid relies on (lives with the experiment tests). */
class ProfileOverrideTest {
    private static Parameter param(String name) {
        return ParameterRegistry.find(name).orElseThrow();
    }

    @Test
    void overridesConvertUnitsAndLeaveTheBaseAlone() {
        Profile base = ProfileRegistry.load("part-forth");
        long mtu = base.size(param("transport.mtu"));
        Profile derived = base.withOverrides(Map.of("transport.mtu", "2 KiB", "link.latency", "1.5us",
                "link.loss", "1%"), "--set");
        assertEquals(2048, derived.size(param("transport.mtu")));
        assertEquals(1_500_000, derived.time(param("link.latency")));
        assertEquals(0.01, derived.probability(param("link.loss")));
        assertEquals("override: --set", derived.source(param("link.loss")));
        assertEquals("part-forth", derived.name());
        assertEquals("override", derived.chain().get(0));
        assertEquals(base.chain(), derived.chain().subList(1, derived.chain().size()));
        // Untouched values and the base profile itself are unchanged.
        assertEquals(base.setting(param("link.bandwidth")), derived.setting(param("link.bandwidth")));
        assertEquals(mtu, base.size(param("transport.mtu")));
        assertEquals(mtu, ProfileRegistry.load("part-forth").size(param("transport.mtu")));
        assertSame(base, base.withOverrides(List.of()));
    }

    @Test
    void badOverridesFailWithTheProfileMessages() {
        Profile base = ProfileRegistry.load("default");
        assertEquals("spec.yaml:4: link.loss.value: 2 must be a probability between 0 and 1 (or 0% and 100%)",
                assertThrows(ProfileException.class, () -> base.withOverrides(
                        List.of(new ProfileOverride("link.loss", "2", "spec.yaml", 4)))).getMessage());
        assertEquals("--set: transport.mtu.unit: 'ns' is not a size unit; valid units: B, KB, KiB, MB, MiB, GB, GiB",
                assertThrows(ProfileException.class, () -> base.withOverrides(Map.of("transport.mtu", "4 ns"),
                        "--set")).getMessage());
        assertEquals("--set: link.latnecy: unknown parameter; closest known: link.latency, link.loss, pcie.latency",
                assertThrows(ProfileException.class, () -> base.withOverrides(Map.of("link.latnecy", "1 us"),
                        "--set")).getMessage());
        assertEquals("--set: nic.iommu.value: 'maybe' is not a boolean; valid values: true, false",
                assertThrows(ProfileException.class, () -> base.withOverrides(Map.of("nic.iommu", "maybe"),
                        "--set")).getMessage());
        ProfileException e = assertThrows(ProfileException.class, () -> base.withOverrides(
                Map.of("link.latency", "fast"), "--set"));
        assertEquals("'fast' is not a number; write a decimal number such as 150, 2.33 or 1e-3", e.problem());
    }

    @Test
    void aDerivedProfileDumpLoadsBackWithItsOverriddenValues(@TempDir Path dir) throws Exception {
        Profile derived = ProfileRegistry.load("default").withOverrides(Map.of("transport.mtu", "1 KiB"), "exp.yaml");
        Path file = dir.resolve("derived.yaml");
        Files.writeString(file, derived.dump());
        Profile back = ProfileRegistry.loadFile(file);
        assertEquals(1024, back.size(param("transport.mtu")));
        assertEquals("override: exp.yaml", back.source(param("transport.mtu")));
    }
}
