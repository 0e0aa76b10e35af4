package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * The hypervisor's second-stage table of one virtual machine: guest-physical frame to machine
 * frame (Intel EPT / VT-d second-stage, Arm stage 2), owned by the host kernel, with the host's
 * own MMU notifiers. The guest {@link Kernel}'s frames are guest-physical frames; this table says
 * which machine frame backs each, or that none does.
 *
 * <p>Every guest frame starts backed by machine frame {@code gfn} (guest RAM populated at boot,
 * as QEMU does with a passthrough device). Host reclaim ({@link #reclaim}) and host migration
 * ({@link #migrate}) tell every {@link Listener} before the entry changes, as the host's
 * {@code mmu_notifier_invalidate_range_start} does for KVM and VFIO/iommufd; a reclaimed frame is
 * backed again by a fresh machine frame on its next host fault ({@link #fault}). A guest page
 * pinned by the guest kernel ({@code get_user_pages}) is pinned here too, as a vIOMMU DMA map
 * makes VFIO pin the host page (drivers/vfio/vfio_iommu_type1.c vfio_pin_pages_remote): host
 * reclaim and migration refuse it.
 *
 * <p>Costs are the host's, charged to whoever waits: a host fault is a VM exit and fault entry,
 * the host's page-in, and the VM entry that resumes the guest.
 */
public final class HostStage {
    /** Told before a guest frame loses its machine frame. */
    @FunctionalInterface
    public interface Listener {
        /** Guest frame {@code gfn} is about to lose (or change) its machine frame. */
        void hostInvalidate(long gfn);
    }

    private final HostCosts costs;
    private final int walkLevels;
    /** Guest frames with no machine frame (reclaimed by the host). */
    private final LongHashSet absent = new LongHashSet();
    /** Guest frames whose machine frame is not the boot-time one. */
    private final Long2LongHashMap moved = new Long2LongHashMap(-1);
    /** Host pins per guest frame. */
    private final Long2LongHashMap pins = new Long2LongHashMap(0);
    private final List<Listener> listeners = new ArrayList<>();
    private final boolean deviceNotifier;
    private long nextMachineFrame;
    private final Counter hostFaults;
    private final Counter reclaimed;
    private final Counter migrated;
    private final Counter refusedPinned;
    private final Counter pinnedPages;
    private final Counter invalidations;

    /**
     * A second stage over {@code guestFrames} guest frames.
     *
     * @param walkLevels     levels of the host table a walk reads (4 for x86-64 EPT)
     * @param deviceNotifier whether the hypervisor's invalidations reach devices' translations;
     *                       false is a hypervisor that forgets them (the device then keeps using
     *                       the old machine frame)
     */
    public HostStage(long guestFrames, int walkLevels, HostCosts costs, boolean deviceNotifier,
            StatisticsRegistry statistics, String name) {
        if (guestFrames <= 0 || walkLevels <= 0 || costs == null) {
            throw new IllegalArgumentException("a host stage needs guest frames, walk levels and costs");
        }
        this.costs = costs;
        this.walkLevels = walkLevels;
        this.deviceNotifier = deviceNotifier;
        this.nextMachineFrame = guestFrames;
        hostFaults = statistics.counter(name + ".host_faults", "faults", "host faults: a guest frame backed again");
        reclaimed = statistics.counter(name + ".host_reclaimed", "pages", "guest frames the host reclaimed");
        migrated = statistics.counter(name + ".host_migrated", "pages", "guest frames the host moved to another machine frame");
        refusedPinned = statistics.counter(name + ".host_refused_pinned", "pages",
                "host reclaims and migrations refused because the guest frame is pinned in both stages");
        pinnedPages = statistics.counter(name + ".host_pins", "pages", "host pins taken for guest pins");
        invalidations = statistics.counter(name + ".host_invalidations", "calls", "host notifier calls");
    }

    /** Subscribes {@code l} to host invalidations (KVM's and VFIO's MMU notifiers). */
    public void subscribe(Listener l) {
        listeners.add(l);
    }

    /**
     * Subscribes a device's translations (an IOMMU's combined entries, a NIC's ODP entries) to
     * host invalidations, through VFIO/iommufd; nothing when the hypervisor forgets devices.
     *
     * @return whether {@code l} was subscribed
     */
    public boolean subscribeDevice(Listener l) {
        if (deviceNotifier) {
            listeners.add(l);
        }
        return deviceNotifier;
    }

    /** Levels of the host table one guest-physical lookup reads. */
    public int walkLevels() {
        return walkLevels;
    }

    /** The host's costs. */
    public HostCosts costs() {
        return costs;
    }

    /** Whether guest frame {@code gfn} has a machine frame. */
    public boolean present(long gfn) {
        return !absent.contains(gfn);
    }

    /** The machine frame backing {@code gfn}, or -1 if none does. */
    public long machineFrame(long gfn) {
        if (absent.contains(gfn)) {
            return -1;
        }
        long m = moved.get(gfn);
        return m >= 0 ? m : gfn;
    }

    /**
     * A host fault on {@code gfn}: if it has no machine frame, the hypervisor backs it with a
     * fresh one. Returns the time: 0 if it was backed, else exit, page-in and resume.
     */
    public long fault(long gfn) {
        if (!absent.remove(gfn)) {
            return 0;
        }
        moved.put(gfn, nextMachineFrame++);
        hostFaults.increment();
        return costs.faultPs();
    }

    /** Pins {@code gfn} in the host (backing it first); returns the host fault time, if any. */
    public long pin(long gfn) {
        long t = fault(gfn);
        pins.put(gfn, pins.get(gfn) + 1);
        pinnedPages.increment();
        return t;
    }

    /** Drops one host pin of {@code gfn}. */
    public void unpin(long gfn) {
        long n = pins.get(gfn);
        if (n <= 0) {
            throw new IllegalStateException("host unpin of guest frame " + gfn + ", which has no host pin");
        }
        if (n == 1) {
            pins.remove(gfn);
        } else {
            pins.put(gfn, n - 1);
        }
    }

    /** Host pins held on {@code gfn}. */
    public long pinCount(long gfn) {
        return pins.get(gfn);
    }

    /**
     * Host reclaim of {@code gfn} (host swap or a balloon): listeners first, then the entry goes.
     *
     * @return false if it was not backed or is pinned (refused and counted)
     */
    public boolean reclaim(long gfn) {
        if (!release(gfn)) {
            return false;
        }
        absent.add(gfn);
        moved.remove(gfn);
        reclaimed.increment();
        return true;
    }

    /**
     * Whether the host may take {@code gfn}'s frame away: it must be backed and unpinned (a pinned
     * one is refused and counted); if so, the listeners are told first.
     */
    private boolean release(long gfn) {
        if (absent.contains(gfn)) {
            return false;
        }
        if (pins.get(gfn) > 0) {
            refusedPinned.increment();
            return false;
        }
        notifyListeners(gfn);
        return true;
    }

    /**
     * Host migration of {@code gfn} to another machine frame (NUMA balancing, compaction):
     * listeners first, then the new frame.
     *
     * @return false if it was not backed or is pinned (refused and counted)
     */
    public boolean migrate(long gfn) {
        if (!release(gfn)) {
            return false;
        }
        moved.put(gfn, nextMachineFrame++);
        migrated.increment();
        return true;
    }

    private void notifyListeners(long gfn) {
        invalidations.increment();
        for (int i = 0; i < listeners.size(); i++) {
            listeners.get(i).hostInvalidate(gfn);
        }
    }

    /** Host faults so far. */
    public long hostFaults() {
        return hostFaults.value();
    }

    /** Guest frames reclaimed by the host so far. */
    public long reclaimed() {
        return reclaimed.value();
    }

    /** Host reclaims and migrations refused on pinned frames so far. */
    public long refusedPinned() {
        return refusedPinned.value();
    }

    /** Guest frames pinned in the host now. */
    public int pinnedFrames() {
        return pins.size();
    }

    /** Host pins taken so far. */
    public long hostPins() {
        return pinnedPages.value();
    }
}
