package org.pagefabric.reg.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.os.DeviceMemory;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;

/** On an EFA domain a static dma-buf registration pays for the device memory its domain already holds. */
class StaticDmaBufGrowthTest {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ;
    private static final int PAGES = 16;

    @Test
    void theSecondRegistrationPaysForTheFirstsBytesAndDeregistrationTakesThemBack() {
        Profile profile = ProfileRegistry.load("efa-p5");
        Job job = new Job(new Simulator(1), profile, 2, 1 << 20, PolicyRegistry.standard().create("pin-all", profile));
        Rank a = job.rank(0);
        DeviceMemory gpu = a.node().kernel().deviceMemory();
        DmaBuf first = gpu.export(PAGES * Kernel.PAGE_SIZE);
        DmaBuf second = gpu.export(PAGES * Kernel.PAGE_SIZE);
        DmaBufRegistrar r = a.policy().dmaBuf(a.node());
        long own = profile.time(NicParameters.REGISTER_BASE) + PAGES * profile.time(NicParameters.REGISTER_PER_PAGE);
        double growthPerByte = profile.time(NicParameters.REGISTER_DEVICE_GROWTH) / (double) (1L << 30);
        DmaBufRegistrar.Registration one = r.register(a.endpoint(), first, 0, first.size(), 0x7e00_0000_0000L, ACCESS);
        assertEquals(own, one.costPs(), "an empty domain adds nothing");
        DmaBufRegistrar.Registration two = r.register(a.endpoint(), second, 0, second.size(), 0x7f00_0000_0000L, ACCESS);
        assertEquals(own + growthPerByte * first.size(), two.costPs(), 1.0);
        r.deregister(one.region());
        r.deregister(two.region());
        DmaBufRegistrar.Registration again = r.register(a.endpoint(), first, 0, first.size(), 0x7e00_0000_0000L, ACCESS);
        assertEquals(own, again.costPs(), "deregistration emptied the domain");
    }
}
