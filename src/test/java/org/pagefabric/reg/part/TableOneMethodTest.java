package org.pagefabric.reg.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRefusal;

/** The methods of 000 Table I: what each adds before the transfer, and that none meets a network fault. */
class TableOneMethodTest {
    private static final Profile FORTH = ProfileRegistry.load("part-forth");

    private static double d(Map<String, Object> r, String k) {
        return ((Number) r.get(k)).doubleValue();
    }

    @Test
    void preparationsOrderAsTheirKernelWorkAndNoneFaultsAtTheNetwork() {
        long size = 16384;
        Map<String, Object> only = PartFlowTest.row(FORTH, "transfer-only", size, 1, 0, 3, 1);
        Map<String, Object> pres = PartFlowTest.row(FORTH, "touch-pres", size, 1, 0, 3, 1);
        Map<String, Object> nopres = PartFlowTest.row(FORTH, "touch-nopres", size, 1, 0, 3, 1);
        Map<String, Object> pin = PartFlowTest.row(FORTH, "pin-mlock", size, 1, 0, 3, 1);
        for (Map<String, Object> r : java.util.List.of(only, pres, nopres, pin)) {
            assertEquals(true, r.get("verified"), r.get("policy").toString());
            assertEquals(0L, r.get("retransmissions"), r.get("policy") + " meets no network fault");
            assertEquals(0.0, d(r, "fault_pages"));
        }
        assertEquals(0.0, d(only, "latency_overhead_us"));
        // Touch-Pres: one resident touch per page (os.touch.present, 100 ns on part-forth).
        assertEquals(0.1, d(pres, "touch_overhead_per_page_us"), 1e-9);
        assertTrue(d(nopres, "latency_overhead_us") > d(pres, "latency_overhead_us"), "first touches fault");
        assertTrue(d(pin, "latency_overhead_us") > d(nopres, "latency_overhead_us"), "mlock costs more than touching");
        // Within 50 ns: where the transfer starts relative to the link's packet pacing may differ.
        assertEquals(d(only, "latency_us") + d(pin, "latency_overhead_us"), d(pin, "latency_us"), 0.05,
                "the transfer itself is Transfer-Only's");
        assertEquals(0.0, d(pin, "pinned_MiB"), "munlocked after each transfer");
    }

    @Test
    void partPoliciesRefuseANicWithoutIommu() {
        Profile plain = ProfileRegistry.load("default");
        PolicyRefusal e = org.junit.jupiter.api.Assertions.assertThrows(PolicyRefusal.class,
                () -> PartFlowTest.row(plain, "part-pio", 4096, 0, 0, 1, 1));
        assertTrue(e.getMessage().contains("nic.iommu"), e.getMessage());
    }

    @Test
    void pinningPoliciesRunTheSameWorkloadOnPartHardwareAndKeepTheirPagesResident() {
        Map<String, Object> r = PartFlowTest.row(FORTH, "pin-all", 65536, 1, 0, 3, 1);
        assertEquals(true, r.get("verified"));
        assertEquals(0L, r.get("retransmissions"), "pinned pages are never made non-present");
        assertTrue(d(r, "pinned_MiB") > 0);
    }
}
