package org.pagefabric.reg.odp;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.Simulator;

/** A NIC that takes no page faults (EFA) carries no on-demand paging policy. */
class OdpSupportTest {
    @Test
    void anNicWithoutPageFaultsRefusesOdpWithTheReason() {
        Profile efa = ProfileRegistry.load("efa-p5");
        PolicyRefusal r = assertThrows(PolicyRefusal.class,
                () -> new Job(new Simulator(1), efa, 2, 1 << 20, new OdpPolicy("odp-explicit", efa)));
        assertTrue(r.getMessage().contains("odp.supported: false"), r.getMessage());
    }

    @Test
    void theSameHostWithPageFaultsAttachesTheDriver() {
        Profile efa = ProfileRegistry.load("efa-p5").withOverrides(Map.of("odp.supported", "true"), "test");
        Job job = new Job(new Simulator(1), efa, 2, 1 << 20, new OdpPolicy("odp-explicit", efa));
        assertTrue(OdpDriver.of(job.rank(0).node()) != null, "setting up the job attached the driver");
    }
}
