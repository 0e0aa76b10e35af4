package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.CpuCosts;
import org.pagefabric.hw.cpu.Tasklet;
import org.pagefabric.hw.pcie.PcieCosts;
import org.pagefabric.hw.pcie.PcieLink;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.RollingHashTracer;
import org.pagefabric.sim.Simulator;

/**
 * CPU, PCIe and IOMMU together, with random IOTLB replacement, faults, interrupts, a tasklet
 * that maps pages and shoots them down: the same seed gives the same run, event for event.
 */
class NodeDeterminismTest {
    /** A device that DMA-writes random pages, translating each through the IOMMU. */
    static final class Device extends Component {
        final Iommu iommu;
        final PcieLink pcie;
        final Translation t = new Translation();
        int remaining;

        Device(Simulator sim, Iommu iommu, PcieLink pcie, int writes) {
            super(sim, "dev");
            this.iommu = iommu;
            this.pcie = pcie;
            this.remaining = writes;
        }

        @Override
        public void handle(int type, long arg) {
            if (remaining-- == 0) {
                return;
            }
            long va = random().nextLong(256) << 12;
            if (iommu.translate(1, va, true, t)) {
                pcie.dmaWrite(t.physicalAddress(), 64 + random().nextLong(4096), null, 0, 0);
            }
            schedule(t.costPs() + random().nextExponential(200_000), 0, 0);
        }
    }

    private static String run(long seed) {
        Simulator sim = new Simulator(seed);
        RollingHashTracer tracer = new RollingHashTracer();
        sim.setTracer(tracer);
        Cpu cpu = new Cpu(sim, "cpu", 2, new CpuCosts(2_000, 500, 1_000, 100, 50));
        PcieLink pcie = new PcieLink(sim, "pcie", new PcieCosts(8_000_000_000L, 300_000, 24, 256, 512, 80_000, 50_000));
        IommuConfig config = new IommuConfig(List.of(IotlbLevelConfig.parse("rnd_af", 8, 1_000),
                IotlbLevelConfig.parse("rnd_a2", 32, 5_000)), IotlbLevelConfig.parse("rnd_af", 2, 500), 2, 4);
        Iommu iommu = new Iommu(sim, "iommu", config, new IommuCosts(5_000, 70_000, 140_000, 70_000, 300_000));
        MapPageTable pt = new MapPageTable();
        for (long p = 0; p < 256; p += 2) {
            pt.map(p << 12, 100 + p, MapPageTable.RW);
        }
        iommu.bind(1, pt);
        long[] pending = new long[64];
        int[] count = {0};
        Tasklet pageIn = cpu.tasklet("page-in", 0, (type, arg) -> {
            int n = count[0];
            for (int i = 0; i < n; i++) {
                pt.map(pending[i], 1000 + (pending[i] >>> 12), MapPageTable.RW);
                iommu.invalidatePage(1, pending[i]);
            }
            count[0] = 0;
            return 2_000_000L * n;
        }, null, 0);
        int irq = cpu.interrupts().register("fault", 1, (type, pdid) -> {
            FaultRecord r;
            long drained = 0;
            while ((r = iommu.faultLog().poll()) != null) {
                if (count[0] < pending.length) {
                    pending[count[0]++] = r.va() & ~0xFFFL;
                }
                drained++;
            }
            pageIn.schedule(0);
            return 1_000_000 + 100_000 * drained;
        }, null, 0);
        iommu.connectFaultInterrupt(cpu.interrupts(), irq);
        Device dev = new Device(sim, iommu, pcie, 3_000);
        dev.handle(0, 0);
        sim.run();
        assertTrue(iommu.faults() > 0 && cpu.core(1).interruptsTaken() > 0 && pageIn.scheduledRuns() > 0);
        return tracer.hash() + " " + sim.now() + " " + sim.statistics().snapshot();
    }

    @Test
    void sameSeedSameRun() {
        String first = run(2024);
        assertEquals(first, run(2024));
        assertNotEquals(first, run(2025));
    }
}
