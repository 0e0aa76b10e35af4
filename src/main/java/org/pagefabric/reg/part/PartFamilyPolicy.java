package org.pagefabric.reg.part;

import java.util.IdentityHashMap;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.node.CostsFromProfile;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.FaultTrace;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.SegmentRegionKeys;

/**
 * What every policy on PART's hardware shares (000 §III): each rank's segment is registered as
 * one IOMMU-translated region (nothing pinned; the NI reaches memory with {PDID, VA} through
 * the SMMU and the process page table) and every node runs PART's fault handling
 * ({@link PartDriver}), so a page that is not present when the network reaches it is resolved
 * and retransmitted, whatever the policy did beforehand.
 */
public abstract class PartFamilyPolicy implements SegmentRegionKeys {
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final String name;
    private final PageIn pageIn;
    private final boolean err;
    private final int blockBytes;
    /** The costs of PART's software and of user touches. */
    protected final PartCosts costs;
    private final Map<Node, PartDriver> drivers = new IdentityHashMap<>();

    /**
     * @param pageIn how the fault tasklet pages in
     * @param err    whether destination faults are answered by ERR (else the source's time-out)
     */
    protected PartFamilyPolicy(String name, Profile profile, PageIn pageIn, boolean err) {
        this.name = name;
        this.pageIn = pageIn;
        this.err = err;
        this.costs = PartCosts.of(profile);
        this.blockBytes = CostsFromProfile.transport(profile).blockBytes();
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public long setUp(Endpoint rank) {
        Node node = rank.node();
        PolicyRefusal.unlessIommuPath(node, name, "--profile part-forth");
        PartDriver driver = drivers.computeIfAbsent(node, n -> new PartDriver(n, costs, pageIn, err, blockBytes));
        driver.bind(rank.pd().id(), rank.process());
        MemoryRegion mr = node.nic().registerVirtual(rank.pd(), rank.segment(), rank.segmentLength(), ACCESS);
        rank.setSegmentRegion(mr);
        return 0;
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        return 0;
    }

    /** PART's fault handling on {@code node}, or null if no rank of this policy runs there. */
    public PartDriver driver(Node node) {
        return drivers.get(node);
    }

    /** PART's fault handling on the rank's node. */
    @Override
    public FaultTrace faultTrace(Endpoint rank) {
        return drivers.get(rank.node());
    }

    /** First address of the page holding {@code va}. */
    static long pageDown(long va) {
        return va & ~(Kernel.PAGE_SIZE - 1);
    }

    /** One past the last byte of the last page of {@code [va, va + length)}. */
    static long pageUp(long va, long length) {
        return (va + Math.max(length, 1) + Kernel.PAGE_SIZE - 1) & ~(Kernel.PAGE_SIZE - 1);
    }
}
