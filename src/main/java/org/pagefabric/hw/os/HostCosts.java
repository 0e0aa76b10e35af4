package org.pagefabric.hw.os;

/**
 * What a host fault under a virtual machine costs, in picoseconds: the guest is stopped for all
 * three.
 *
 * @param exitPs   the VM exit and the host's fault entry (an EPT violation or a stage-2 fault)
 * @param pageInPs the host backing the guest frame with a fresh machine frame (allocate, zero or
 *                 read back, map in the second stage)
 * @param resumePs the VM entry that resumes the guest
 */
public record HostCosts(long exitPs, long pageInPs, long resumePs) {
    /** Validates that no cost is negative. */
    public HostCosts {
        if (exitPs < 0 || pageInPs < 0 || resumePs < 0) {
            throw new IllegalArgumentException("host costs must not be negative: " + this);
        }
    }

    /** One host fault, exit to resume. */
    public long faultPs() {
        return exitPs + pageInPs + resumePs;
    }
}
