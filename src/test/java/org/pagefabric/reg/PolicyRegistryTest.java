package org.pagefabric.reg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** The registry of policies: found by ServiceLoader, unique names, filtered by capability before running. */
class PolicyRegistryTest {
    private static final Profile DEFAULT = ProfileRegistry.load("default");

    @Test
    void findsEveryBundledFamilyInServiceFileOrder() {
        List<String> names = PolicyRegistry.standard().names();
        assertEquals("pin-all", names.get(0));
        for (String n : List.of("bounce", "firehose", "openmx-cache", "odp-explicit", "part-pio", "aa-int")) {
            assertTrue(names.contains(n), n + " missing from " + names);
        }
        assertEquals(PolicyRegistry.DEFAULT, names.get(0));
    }

    @Test
    void anUnknownNameIsOneLineListingTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PolicyRegistry.standard().descriptor("pin-most"));
        assertTrue(e.getMessage().startsWith("unknown policy 'pin-most'; valid: pin-all, "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void twoPoliciesCannotShareAName() {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor("pin-all");
        assertThrows(IllegalStateException.class, () -> PolicyRegistry.of(List.of(d, d)));
    }

    @Test
    void ablePoliciesOfferWhatTheWorkloadNeedsOnThisHardware() {
        List<String> gets = PolicyRegistry.standard().able(Set.of(Capability.GET), DEFAULT);
        assertFalse(gets.contains("bounce"), "bounce buffers carry no gets");
        assertFalse(gets.contains("openmx-cache"), "Open-MX carries no one-sided operations");
        assertTrue(gets.contains("firehose"));
        Profile noIommu = DEFAULT.withOverrides(Map.of("nic.iommu", "false"), "test");
        assertFalse(PolicyRegistry.standard().able(Set.of(Capability.PUT), noIommu).contains("part-pio"));
        assertNull(PolicyRegistry.standard().descriptor("part-pio").refusal(Set.of(Capability.PUT),
                ProfileRegistry.load("part-forth")));
        String why = PolicyRegistry.standard().descriptor("openmx-cache").refusal(Set.of(Capability.PUT), DEFAULT);
        assertEquals("openmx-cache does not carry one-sided puts", why);
    }
}
