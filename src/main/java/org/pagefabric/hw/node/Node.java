package org.pagefabric.hw.node;

import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Network;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.Swap;
import org.pagefabric.hw.pcie.PcieLink;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;

/**
 * One host of a {@link Cluster}, named {@code node<i>}: its CPU ({@code node<i>.cpu}), RAM and
 * the kernel managing it, the PCIe link to its NIC ({@code node<i>.pcie}), the NIC
 * ({@code node<i>.nic}) on the node's transport endpoint, and, when the profile's NIC
 * translates through one ({@code nic.iommu}), an IOMMU ({@code node<i>.iommu}).
 *
 * <p>The parts are built and named but not wired to each other beyond what their constructors
 * take: a registration policy decides, for instance, which interrupt the IOMMU's faults raise
 * and which processes the kernel runs. A node itself schedules no events.
 */
public final class Node extends Component {
    private final int id;
    private final Cpu cpu;
    private final PhysicalMemory memory;
    private final Kernel kernel;
    private final PcieLink pcie;
    private final Iommu iommu;
    private final TransportEndpoint endpoint;
    private final Nic nic;
    private final HostStage hostStage;

    Node(Simulator sim, int id, NodeSpec spec, Network network) {
        super(sim, "node" + id);
        this.id = id;
        this.cpu = new Cpu(sim, this, "cpu", spec.cores(), spec.cpu());
        // PhysicalMemory and the kernel's tables allocate lazily: an idle node of 256 GiB costs a few KiB.
        this.memory = new PhysicalMemory(spec.memoryBytes());
        this.kernel = new Kernel(memory, new Swap(spec.swapSlots()), spec.os(), spec.kernel(), sim.statistics(),
                name() + ".kernel");
        this.pcie = new PcieLink(sim, this, "pcie", spec.pcie());
        this.iommu = spec.iommuConfig() == null ? null
                : new Iommu(sim, this, "iommu", spec.iommuConfig(), spec.iommuCosts());
        this.endpoint = new TransportEndpoint(network, id, this);
        this.nic = new Nic(sim, this, "nic", id, spec.nic(), memory, endpoint, spec.translationCache(),
                spec.keyTagBits());
        if (iommu != null) {
            // The NI's accesses with {PDID, VA} pass through the SMMU (000 §III-B); refused ones go to the NI FIFO.
            nic.attachIommu(iommu, spec.niFifoEntries());
        }
        this.hostStage = spec.vm() == null ? null : runAsGuest(sim, spec.vm());
    }

    private HostStage runAsGuest(Simulator sim, VmSpec vm) {
        HostStage stage = new HostStage(memory.capacityFrames(), vm.hostWalkLevels(), vm.hostCosts(),
                vm.deviceNotifier(), sim.statistics(), name() + ".vm");
        kernel.runOver(stage);
        if (iommu != null) {
            iommu.nest(stage);
            // VT-d nested: a second-stage change flushes every combined (first- and second-stage) entry
            stage.subscribeDevice(gfn -> iommu.invalidateAll());
        }
        return stage;
    }

    /** The hypervisor's second stage when the node runs as a virtual machine ({@code vm.nested}), else null. */
    public HostStage hostStage() {
        return hostStage;
    }

    /** The node's index in its cluster (its network address). */
    public int id() {
        return id;
    }

    /** The host processor. */
    public Cpu cpu() {
        return cpu;
    }

    /** The node's RAM. */
    public PhysicalMemory memory() {
        return memory;
    }

    /** The kernel managing the node's RAM, address spaces and pinning. */
    public Kernel kernel() {
        return kernel;
    }

    /** The PCIe link between the NIC and the root complex. */
    public PcieLink pcie() {
        return pcie;
    }

    /** The RDMA NIC, named {@code node<i>.nic}. */
    public Nic nic() {
        return nic;
    }

    /** The IOMMU the NIC translates through, or {@code null} when the profile's NIC has its own table. */
    public Iommu iommu() {
        return iommu;
    }

    /** The node's endpoint of the reliable transport, which the NIC sends and receives through. */
    public TransportEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public void handle(int type, long arg) {
        throw new IllegalStateException(name() + " schedules no events, got type " + type);
    }
}
