package org.pagefabric.hw.node;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.os.HostCosts;
import org.pagefabric.hw.param.VmParameters;

/**
 * How a node runs as a virtual machine ({@code vm.*}), read from the profile once.
 *
 * @param hostWalkLevels     levels of the hypervisor's second-stage table
 * @param hostCosts          what a host fault costs the guest
 * @param deviceNotifier     whether host invalidations reach the device's translations
 */
record VmSpec(int hostWalkLevels, HostCosts hostCosts, boolean deviceNotifier) {

    /** The profile's virtual machine, or null when {@code vm.nested} is false (bare metal). */
    static VmSpec of(Profile p) {
        if (!p.flag(VmParameters.NESTED)) {
            return null;
        }
        return new VmSpec(ProfileValues.intCount(p, VmParameters.HOST_WALK_LEVELS),
                new HostCosts(p.time(VmParameters.HOST_FAULT_EXIT), p.time(VmParameters.HOST_FAULT_PAGE_IN),
                        p.time(VmParameters.HOST_FAULT_RESUME)),
                p.flag(VmParameters.HOST_NOTIFIER));
    }
}
