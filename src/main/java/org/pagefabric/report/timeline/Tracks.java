package org.pagefabric.report.timeline;

/**
 * Track numbers: ranks from 0, NICs and kernels in ranges of their own, and the job's counters.
 * Each node is a process of the trace-event file and its rank, NIC and kernel are threads of it.
 */
final class Tracks {
    static final int NIC_BASE = 1 << 20;
    static final int KERNEL_BASE = 2 << 20;
    static final int JOB = 3 << 20;

    private Tracks() {
    }

    static int rank(int r) {
        return r;
    }

    static int nic(int node) {
        return NIC_BASE + node;
    }

    static int kernel(int node) {
        return KERNEL_BASE + node;
    }
}
