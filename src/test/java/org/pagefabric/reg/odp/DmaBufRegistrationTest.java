package org.pagefabric.reg.odp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.os.DeviceMemory;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PageOpResult;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * A dma-buf region through the ODP driver (dynamic attachment) and through pin-all (static):
 * what a fault maps, what move_notify zaps and charges, and what deregistering releases.
 */
class DmaBufRegistrationTest {
    private static final long IOVA = 0x7e00_0000_0000L;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ;
    private static final int PAGES = 8;

    @Test
    void aDynamicRegionMapsWholeOnItsFirstFaultAndMoveNotifyZapsItAllAtTheMovesExpense() {
        Profile profile = ProfileRegistry.load("default");
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, profile, 2, 1 << 20, PolicyRegistry.standard().create("odp-explicit", profile));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        DeviceMemory exporter = a.node().kernel().deviceMemory();
        DmaBuf buf = exporter.export(PAGES * Kernel.PAGE_SIZE);
        OdpDriver driver = OdpDriver.attach(a.node(), profile);
        long[] seen = new long[6];
        Outcome[] status = new Outcome[2];
        new SimProcess(sim, a.node(), "t", ctx -> {
            DmaBufRegistrar r = a.policy().dmaBuf(a.node());
            DmaBufRegistrar.Registration reg = r.register(a.endpoint(), buf, 0, buf.size(), IOVA, ACCESS);
            assertEquals(driver.costs().registerPs(), reg.costPs());
            buf.writeTag(5, 0);
            a.write(ctx, b, reg, IOVA, null, 0, Kernel.PAGE_SIZE, 1); // one page asked for
            status[0] = a.awaitSend(ctx).status();
            seen[0] = driver.pagesIn();
            seen[1] = reg.region().table().presentEntries();
            PageOpResult move = exporter.move(buf);
            seen[2] = move.costPs();
            seen[3] = reg.region().table().presentEntries();
            seen[4] = driver.invalidatedPages();
            a.write(ctx, b, reg, IOVA, null, 0, buf.size(), 2);
            status[1] = a.awaitSend(ctx).status();
            r.deregister(reg.region());
            long before = driver.invalidatedPages();
            assertTrue(exporter.move(buf).done());
            seen[5] = driver.invalidatedPages() - before;
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(Outcome.SUCCESS, status[0]);
        assertEquals(Outcome.SUCCESS, status[1]);
        assertEquals(PAGES, seen[0], "the fault mapped the whole region, as ib_umem_dmabuf_map_pages does");
        assertEquals(PAGES, seen[1]);
        OdpCosts c = driver.costs();
        assertEquals(c.invalidate(PAGES) + PAGES * a.node().kernel().costs().migratePerPagePs(), seen[2],
                "the move pays the copy and the importer's zap");
        assertEquals(0, seen[3], "move_notify left no translation");
        assertEquals(PAGES, seen[4]);
        assertEquals(2 * PAGES, driver.pagesIn(), "the next access mapped it again");
        assertEquals(0, seen[5], "a deregistered region hears of no more moves");
        assertTrue(b.node().kernel().verifyTag(b.process(), b.segment(), buf.size(), 5, 0));
    }

    @Test
    void aStaticRegionPinsTheBufferUntilDeregistered() {
        Profile profile = ProfileRegistry.load("default");
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, profile, 2, 1 << 20, PolicyRegistry.standard().create("pin-all", profile));
        Rank a = job.rank(0);
        DeviceMemory exporter = a.node().kernel().deviceMemory();
        DmaBuf buf = exporter.export(PAGES * Kernel.PAGE_SIZE);
        DmaBufRegistrar r = a.policy().dmaBuf(a.node());
        DmaBufRegistrar.Registration reg = r.register(a.endpoint(), buf, 0, buf.size(), IOVA, ACCESS);
        assertEquals(PAGES, reg.region().table().presentEntries(), "mapped once, at registration");
        assertEquals(buf.frame(3), Pte.frame(reg.region().table().get(3)));
        assertEquals(Errno.EBUSY, exporter.move(buf).error());
        r.deregister(reg.region());
        assertTrue(!reg.region().valid() && exporter.move(buf).done(), "the exporter moves it once the pin is gone");
    }
}
