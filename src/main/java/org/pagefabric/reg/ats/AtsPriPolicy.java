package org.pagefabric.reg.ats;

import java.util.IdentityHashMap;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.IommuDmaPath;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.PageTable;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.SegmentRegionKeys;

/**
 * PCIe ATS/PRI with PASID ({@code ats-pri}): nothing is pinned and nothing is registered per
 * buffer. Each rank's address space is bound to the IOMMU under its own PASID (its protection
 * domain), and one key over the whole address space names that binding, so any buffer, malloc'd
 * or not, is reachable. The NIC translates through its Address Translation Cache; a miss asks the
 * IOMMU (a Translation Request), a page that is not present is asked for with a Page Request that
 * the OS's I/O page-fault handler ({@link PriHandler}) resolves, and a mapping change invalidates
 * the IOMMU and the ATC and waits for the NIC's Invalidation Completion (HPE Cassini's ATS mode
 * with ODP, libfabric man/fi_cxi.7.md "Translation").
 *
 * <p>It publishes the ATC's page translations as {@link Metric#HITS} (served by the ATC) and
 * {@link Metric#MISSES} (a Translation Request was needed), so a workload's hit rate is the ATC's.
 */
public final class AtsPriPolicy implements SegmentRegionKeys {
    /** The policy's name. */
    public static final String NAME = "ats-pri";
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final PriCosts costs;
    private final Map<Node, PriHandler> handlers = new IdentityHashMap<>();
    private long hitsAtReset;
    private long missesAtReset;

    /** The policy with costs from {@code profile}. */
    public AtsPriPolicy(Profile profile) {
        this.costs = PriCosts.of(profile);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long setUp(Endpoint rank) {
        Node node = rank.node();
        PolicyRefusal.unlessIommuPath(node, NAME, "--profile part-forth or --set nic.iommu=true");
        PriHandler handler = handlers.computeIfAbsent(node, n -> new PriHandler(n, costs));
        handler.bind(rank.pd().id(), rank.process());
        MemoryRegion mr = node.nic().registerVirtual(rank.pd(), 0, PageTable.USER_TOP, ACCESS);
        rank.setSegmentRegion(mr);
        return 0;
    }

    /** Nothing is ever pinned. */
    @Override
    public long pinnedBytes(Endpoint rank) {
        return 0;
    }

    @Override
    public long count(Metric metric) {
        return switch (metric) {
            case HITS -> total(true) - hitsAtReset;
            case MISSES -> total(false) - missesAtReset;
            default -> NOT_COUNTED;
        };
    }

    @Override
    public void reset(Metric metric) {
        if (metric == Metric.HITS) {
            hitsAtReset = total(true);
        } else if (metric == Metric.MISSES) {
            missesAtReset = total(false);
        }
    }

    private long total(boolean hits) {
        long n = 0;
        for (Node node : handlers.keySet()) {
            IommuDmaPath path = node.nic().iommuPath();
            n += hits ? path.atcHits() : path.atcMisses();
        }
        return n;
    }
}
