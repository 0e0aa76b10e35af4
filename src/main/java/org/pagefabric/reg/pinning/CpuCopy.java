package org.pagefabric.reg.pinning;

import org.pagefabric.config.Bandwidth;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.param.MemoryParameters;

/**
 * A memcpy by a core between two buffers of one node: the bytes really move (content tags
 * kept, through {@link PhysicalMemory#copy}), the pages are touched as the CPU would (faults
 * resolved and charged), and the copy costs a fixed overhead plus the longer of the core's copy
 * rate and the memory traffic it causes (every byte read once and written once) at the node's
 * memory bandwidth.
 */
public final class CpuCopy {
    /** Rate of one core copying between a user buffer and a runtime's buffer (bounce or eager). */
    public static final Parameter COPY_BANDWIDTH = Parameter.bandwidth("bounce.copy_bandwidth",
            "Rate of one core's memcpy between a user buffer and a bounce buffer (also bounded by memory.bandwidth).");
    /** Fixed cost of one copy. */
    public static final Parameter COPY_OVERHEAD = Parameter.time("bounce.copy_overhead",
            "Fixed cost of one copy into or out of a bounce buffer: the call and the first cache misses.");

    private final long overheadPs;
    private final Bandwidth coreRate;
    private final Bandwidth memoryRate;

    /** A core's copies at the rates {@code profile} gives. */
    public CpuCopy(Profile profile) {
        this.overheadPs = profile.time(COPY_OVERHEAD);
        this.coreRate = profile.bandwidth(COPY_BANDWIDTH);
        this.memoryRate = profile.bandwidth(MemoryParameters.BANDWIDTH);
    }

    /** Time a copy of {@code bytes} takes, page faults excluded, in picoseconds. */
    public long costPs(long bytes) {
        return overheadPs + Math.max(coreRate.transferTimePs(bytes), memoryRate.transferTimePs(2 * bytes));
    }

    /**
     * Copies {@code length} bytes from {@code src} in {@code from} to {@code dst} in {@code to}
     * (both on {@code kernel}'s node).
     *
     * @return the time the copy took, page faults included, in picoseconds
     */
    public long copy(Kernel kernel, AddressSpace from, long src, AddressSpace to, long dst, long length) {
        long faults = 0;
        PhysicalMemory memory = kernel.memory();
        for (long done = 0; done < length; ) {
            long s = src + done;
            long d = dst + done;
            int n = (int) Math.min(length - done, Math.min(Kernel.PAGE_SIZE - (s & (Kernel.PAGE_SIZE - 1)),
                    Kernel.PAGE_SIZE - (d & (Kernel.PAGE_SIZE - 1))));
            faults += touch(kernel, from, s, false) + touch(kernel, to, d, true);
            long ps = from.physicalAddress(s);
            long pd = to.physicalAddress(d);
            memory.copy(ps >>> 12, (int) (ps & (Kernel.PAGE_SIZE - 1)), pd >>> 12, (int) (pd & (Kernel.PAGE_SIZE - 1)), n);
            done += n;
        }
        return faults + costPs(length);
    }

    private static long touch(Kernel kernel, AddressSpace as, long va, boolean write) {
        Fault f = kernel.touch(as, va, write);
        if (!f.resolved()) {
            throw new OsException(Errno.EFAULT, f.kind() + " copying at 0x" + Long.toHexString(va), f.costPs());
        }
        return f.costPs();
    }
}
