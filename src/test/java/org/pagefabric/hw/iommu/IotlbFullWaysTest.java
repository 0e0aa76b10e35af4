package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.node.CostsFromProfile;

/** {@code iommu.iotlb.l1.ways: full} (aa.fig7c's af lines) makes a fully associative level of any size. */
class IotlbFullWaysTest {
    @Test
    void fullMeansAsManyWaysAsEntries() {
        Profile base = ProfileRegistry.load("aa-crayxe6");
        for (String entries : new String[] {"8", "512"}) {
            Profile p = base.withOverrides(Map.of("iommu.iotlb.l1.entries", entries, "iommu.iotlb.l1.ways", "full",
                    "iommu.iotlb.l2.entries", "0", "iommu.iotlb.eviction", "random"), "test");
            IommuConfig c = CostsFromProfile.iommuConfig(p);
            assertEquals(1, c.iotlbLevels().size());
            assertEquals(Integer.parseInt(entries), c.iotlbLevels().get(0).ways());
            assertEquals(1, c.iotlbLevels().get(0).sets());
            assertEquals(ReplacementPolicy.RANDOM, c.iotlbLevels().get(0).policy());
        }
        Profile a2 = base.withOverrides(Map.of("iommu.iotlb.l1.entries", "16", "iommu.iotlb.l1.ways", "2"), "test");
        assertEquals(8, CostsFromProfile.iommuConfig(a2).iotlbLevels().get(0).sets());
    }

    @Test
    void otherWordsAreRefusedNamingTheField() {
        Profile base = ProfileRegistry.load("aa-crayxe6");
        ProfileException e = assertThrows(ProfileException.class,
                () -> base.withOverrides(Map.of("iommu.iotlb.l1.ways", "fully"), "test"));
        assertTrue(e.getMessage().contains("iommu.iotlb.l1.ways"), e.getMessage());
        assertThrows(ProfileException.class, () -> base.withOverrides(Map.of("iommu.iotlb.l1.entries", "full"), "test"));
    }
}
