package org.pagefabric.reg.nprdma;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.LongHashSet;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.PageTable;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * NP-RDMA ({@code np-rdma}, arXiv 2310.11062): memory registered without pinning on a NIC that
 * cannot fault. The NIC reaches each rank's memory through the IOMMU; the node's
 * {@link NpRdmaModule} keeps which pages are present to it, follows the kernel's changes with an
 * MMU notifier and resolves missing pages in software. Every verb passes the library first
 * (LD_PRELOAD), which, in this order:
 * <ol>
 *   <li>pays its own per-verb work ({@code nprdma.wrap}) and tests the status bit of each page of
 *       the local buffer ({@code nprdma.check.per_page});
 *   <li>if a local page is missing, asks the local module by an ioctl ({@code os.syscall}) to
 *       fault it in and map it ({@code os.page_fault.minor} or {@code .major},
 *       {@code nprdma.iommu_map.per_page});
 *   <li>for a one-sided verb, tests its own copy of the target's status of the remote pages; if
 *       one is missing or was invalidated since, sends a request to the target's module, which
 *       resolves the pages the same way and answers; the copy then holds them until the target's
 *       notifier clears them;
 *   <li>posts the verb, which the NIC carries through the IOMMU with no fault.
 * </ol>
 * Only the abstract of the paper could be read: the mechanism is built from what it states (MMU
 * notifier, IOMMU mapping, software detection and handling, a modified kernel module, no change to
 * the NIC); the remote check by a request to the target's module is this model's reading of it.
 * A page the kernel reclaims between the check and the NIC's access (a race the paper covers with
 * an IOMMU mapping of missing pages to a reserved page) is not modelled: the NIC's access would
 * fault and its packet be dropped.
 */
public final class NpRdmaPolicy implements RegistrationPolicy {
    /** The policy's name. */
    public static final String NAME = "np-rdma";
    /** The handler id of a request to a target's module. */
    static final int RESOLVE_HANDLER = 40;
    private static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    private final long wrapPs;
    private final long checkPerPagePs;
    private final long iommuMapPs;
    private final long syscallPs;
    private final Map<Node, NpRdmaModule> modules = new IdentityHashMap<>();
    /** views.get(initiator).get(target): the initiator's copy of the target's page status. */
    private final List<List<LongHashSet>> views = new ArrayList<>();
    private final List<Endpoint> ranks = new ArrayList<>();
    private ActiveMessages messages;
    private Counter remoteResolves;

    /** The policy with costs from {@code profile}. */
    public NpRdmaPolicy(Profile profile) {
        this.wrapPs = profile.time(NpRdmaParameters.WRAP);
        this.checkPerPagePs = profile.time(NpRdmaParameters.CHECK_PER_PAGE);
        this.iommuMapPs = profile.time(NpRdmaParameters.IOMMU_MAP);
        this.syscallPs = profile.time(OsParameters.SYSCALL);
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Registers the rank with its node's module (an ioctl: nothing is pinned, nothing mapped yet)
     * and gives it one key over its whole address space, translated by the IOMMU.
     */
    @Override
    public long setUp(Endpoint rank) {
        Node node = rank.node();
        PolicyRefusal.unlessIommuPath(node, NAME, "--profile nprdma-connectx or --set nic.iommu=true");
        if (remoteResolves == null) {
            remoteResolves = node.simulator().statistics().counter(NAME + ".remote_resolves", "requests",
                    "requests a library sent to a target's module to resolve pages of a one-sided verb");
        }
        NpRdmaModule module = modules.computeIfAbsent(node, n -> new NpRdmaModule(n.kernel(), iommuMapPs));
        module.attach(rank.process());
        if (node.iommu().bank(rank.pd().id()) == null) {
            // the module's IOMMU mapping follows the process's pages, kept coherent by the notifier
            SharedVirtualAddressing.bind(node.iommu(), rank.pd().id(), rank.process());
        }
        MemoryRegion mr = node.nic().registerVirtual(rank.pd(), 0, PageTable.USER_TOP, ACCESS);
        rank.setSegmentRegion(mr);
        while (ranks.size() <= rank.id()) {
            ranks.add(null);
        }
        ranks.set(rank.id(), rank);
        return syscallPs;
    }

    /** Starts the modules' request handlers and gives every rank its copies of its peers' status. */
    @Override
    public void start(JobLayout job) {
        messages = ActiveMessages.attach(job);
        messages.register(RESOLVE_HANDLER, (ctx, target, source, va, length, a2, a3) -> {
            ctx.sleep(module(target).resolve(target.process(), va, length));
            // the reply carries the pages' status: the initiator's copy holds them from now on
            NpRdmaModule.add(views.get(source.id()).get(target.id()), va, length);
            return 0;
        });
        for (int i = 0; i < ranks.size(); i++) {
            List<LongHashSet> row = new ArrayList<>();
            for (int j = 0; j < ranks.size(); j++) {
                Endpoint t = ranks.get(j);
                row.add(t == null ? new LongHashSet() : module(t).view(t.process()));
            }
            views.add(row);
        }
    }

    private NpRdmaModule module(Endpoint rank) {
        return modules.get(rank.node());
    }

    /** Steps 1 and 2: the library's check of the local buffer and, for a missing page, the local module's fault path. */
    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        long cost = wrapPs + pages(va, length) * checkPerPagePs;
        NpRdmaModule module = module(rank);
        if (!module.present(rank.process(), va, length)) {
            cost += syscallPs + module.resolve(rank.process(), va, length);
        }
        return new Access(rank.segmentRegion().lkey(), cost);
    }

    /** Step 3: the library's copy of the target's status and, for a missing page, a request to the target's module. */
    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        long cost = pages(va, length) * checkPerPagePs;
        if (!NpRdmaModule.covers(views.get(initiator.id()).get(target.id()), va, length)) {
            long t0 = ctx.now();
            remoteResolves.increment();
            messages.request(ctx, initiator, target, RESOLVE_HANDLER, va, length, 0, 0);
            initiator.chargePolicy(ctx.now() - t0);
        }
        return new Access(target.segmentRegion().rkey(), cost);
    }

    private static long pages(long va, long length) {
        return Math.ceilDiv(va + Math.max(length, 1), Kernel.PAGE_SIZE) - va / Kernel.PAGE_SIZE;
    }

    /** Nothing is ever pinned. */
    @Override
    public long pinnedBytes(Endpoint rank) {
        return 0;
    }

    /** Requests libraries sent to a target's module so far. */
    long remoteResolves() {
        return remoteResolves == null ? 0 : remoteResolves.value();
    }

    /** Minor faults the modules of every node resolved. */
    long minorFaults() {
        return modules.values().stream().mapToLong(NpRdmaModule::minorFaults).sum();
    }

    /** Major faults the modules of every node resolved. */
    long majorFaults() {
        return modules.values().stream().mapToLong(NpRdmaModule::majorFaults).sum();
    }
}
