package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** Running every node as a virtual machine with a passthrough NIC: two-stage translation. */
public final class VmParameters {
    /** Whether the nodes run as virtual machines with nested translation. */
    public static final Parameter NESTED = Parameter.flag("vm.nested",
            "Run every node's kernel as a guest over a hypervisor's second-stage table (guest-physical to machine):"
                    + " nested IOMMU walks, host faults beneath guest faults, host pins under guest pins.");
    /** Levels of the hypervisor's table. */
    public static final Parameter HOST_WALK_LEVELS = Parameter.count("vm.host_walk.levels",
            "Levels of the hypervisor's second-stage table one guest-physical lookup reads.").positive();
    /** VM exit and host fault entry. */
    public static final Parameter HOST_FAULT_EXIT = Parameter.time("vm.host_fault.exit",
            "A VM exit on a second-stage fault (EPT violation) and the host's fault entry, before it pages in.");
    /** The host backing a guest frame. */
    public static final Parameter HOST_FAULT_PAGE_IN = Parameter.time("vm.host_fault.page_in",
            "The host backing one guest frame with a machine frame: allocate, zero, map in the second stage.");
    /** VM entry resuming the guest. */
    public static final Parameter HOST_FAULT_RESUME = Parameter.time("vm.host_fault.resume",
            "The VM entry that resumes the guest after a host fault.");
    /** Whether host invalidations reach the device's translations. */
    public static final Parameter HOST_NOTIFIER = Parameter.flag("vm.host_notifier",
            "Whether the host's MMU notifier zaps the device's translations of a guest frame it takes"
                    + " (false reproduces a hypervisor that forgets the device: it then DMAs to the old machine frame).");

    private VmParameters() {
    }
}
