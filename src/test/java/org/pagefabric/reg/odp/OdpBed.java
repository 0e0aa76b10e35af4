package org.pagefabric.reg.odp;

import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.Statistic;

/** A job of ranks under an ODP policy on the odp-connectx profile, and what tests check on it. */
final class OdpBed {
    static final Profile PROFILE = ProfileRegistry.resolve("odp-connectx");
    static final long PAGE = Kernel.PAGE_SIZE;

    final Simulator sim;
    final Job job;

    OdpBed(long seed, int ranks, long segmentBytes, String policy, Map<String, String> overrides) {
        sim = new Simulator(seed);
        Profile p = overrides.isEmpty() ? PROFILE : PROFILE.withOverrides(overrides, "test");
        job = new Job(sim, p, ranks, segmentBytes, new OdpPolicy(policy, p));
    }

    Rank rank(int i) {
        return job.rank(i);
    }

    OdpDriver driver(int i) {
        return OdpDriver.of(job.rank(i).node());
    }

    /** Sum of every counter whose name ends with {@code suffix}. */
    long sum(String suffix) {
        long n = 0;
        for (Statistic s : sim.statistics().all()) {
            if (s instanceof Counter c && s.name().endsWith(suffix)) {
                n += c.value();
            }
        }
        return n;
    }

    /**
     * Every present NIC entry of {@code mr} over {@code [va, va + length)} maps the frame the
     * process's page table maps now: no access can reach a frame the page no longer maps to.
     *
     * @return a description of the first mismatch, or null
     */
    static String staleEntry(MemoryRegion mr, AddressSpace as, long va, long length) {
        for (long page = va >>> 12; page < (va + length + PAGE - 1) >>> 12; page++) {
            long entry = mr.table().get(page - mr.firstPage());
            if ((entry & Pte.PRESENT) == 0) {
                continue;
            }
            long phys = as.physicalAddress(page << 12);
            if (phys < 0) {
                return "page 0x" + Long.toHexString(page << 12) + " is mapped in the NIC but not in the process";
            }
            if ((phys >>> 12) != Pte.frame(entry)) {
                return "page 0x" + Long.toHexString(page << 12) + ": NIC frame " + Pte.frame(entry) + ", process frame "
                        + (phys >>> 12);
            }
        }
        return null;
    }
}
