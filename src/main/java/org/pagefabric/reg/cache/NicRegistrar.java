package org.pagefabric.reg.cache;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Errno;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.reg.pinning.NicRegistrationCosts;

/**
 * Pins and registers page ranges of one process with its NIC, and undoes it, returning what each
 * step cost: the kernel's get_user_pages (faults included) plus the NIC's registration on the
 * way in; the NIC's deregistration plus put_page of every frame on the way out. The same
 * accounting as the pin-everything baseline, so the policies compare on equal terms.
 */
public final class NicRegistrar {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final Kernel kernel;
    private final AddressSpace process;
    private final Nic nic;
    private final ProtectionDomain pd;
    private final NicRegistrationCosts costs;

    /**
     * A registrar for {@code process} on {@code nic}, with the NIC's costs from {@code profile}.
     *
     * @param pd the protection domain the regions belong to
     */
    public NicRegistrar(Kernel kernel, AddressSpace process, Nic nic, ProtectionDomain pd, Profile profile) {
        this.kernel = kernel;
        this.process = process;
        this.nic = nic;
        this.pd = pd;
        this.costs = NicRegistrationCosts.of(profile);
    }

    /**
     * A registered range: the NIC's region and the frames pinned for it.
     *
     * @param region the memory region (keys, translation table)
     * @param frames the pinned frames, one per page
     * @param costPs what registering it cost, picoseconds
     */
    public record Registration(MemoryRegion region, long[] frames, long costPs) {
    }

    /**
     * Pins {@code [start, start + length)} (page-aligned), charges it to the process's pinned
     * memory and registers it.
     *
     * @throws OsException if pinning or the memlock charge fails; pages pinned on the way are
     *                     released again and the time spent is in the exception's cost
     */
    public Registration register(long start, long length) {
        long pages = length / Kernel.PAGE_SIZE;
        if (start % Kernel.PAGE_SIZE != 0 || length % Kernel.PAGE_SIZE != 0 || pages <= 0 || pages > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cannot register [" + Long.toHexString(start) + ", +" + length
                    + "): whole pages only");
        }
        long forkPs = costs.markDontfork(process, start, length);
        PinResult pin = kernel.getUserPages(process, start, (int) pages, true);
        if (!pin.complete()) {
            long cost = forkPs + costs.undoDontfork(process, start, length) + pin.costPs() + unpin(pin.frames(), pin.pinned());
            throw new OsException(pin.error(), "pinning " + pages + " pages at " + Long.toHexString(start)
                    + " stopped after " + pin.pinned(), cost);
        }
        try {
            kernel.chargePinned(process, pages);
        } catch (OsException e) {
            long cost = forkPs + costs.undoDontfork(process, start, length) + pin.costPs() + unpin(pin.frames(), pin.pinned());
            throw new OsException(Errno.ENOMEM, e.getMessage(), cost);
        }
        MemoryRegion mr = nic.registerPinned(pd, start, length, ACCESS, pin.frames());
        return new Registration(mr, pin.frames(), forkPs + pin.costPs() + costs.registerPs(pages));
    }

    /** Deregisters and unpins; returns what it cost, picoseconds. */
    public long deregister(Registration r) {
        nic.deregister(r.region());
        long pages = r.frames().length;
        long cost = costs.deregisterPs(pages) + unpin(r.frames(), r.frames().length);
        kernel.unchargePinned(process, pages);
        return cost + costs.undoDontfork(process, r.region().address(), r.region().length());
    }

    private long unpin(long[] frames, int count) {
        long cost = 0;
        for (int i = 0; i < count; i++) {
            cost += kernel.putPage(frames[i]);
        }
        return cost;
    }
}
