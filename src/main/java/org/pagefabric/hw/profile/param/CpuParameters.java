package org.pagefabric.hw.profile.param;

import org.pagefabric.hw.profile.Parameter;

/** Host processors. */
public final class CpuParameters {
    /** Cores per node. */
    public static final Parameter CORES = Parameter.count("cpu.cores",
            "Cores per node available to ranks and kernel work.").positive();
    /** Core clock rate. */
    public static final Parameter FREQUENCY = Parameter.frequency("cpu.frequency",
            "Core clock rate.");
    /** Cost of switching a core from one thread to another. */
    public static final Parameter CONTEXT_SWITCH = Parameter.time("cpu.context_switch",
            "Time to switch a core from one thread to another, including the scheduler.");
    /** Latency from a device interrupt to its handler running. */
    public static final Parameter INTERRUPT = Parameter.time("cpu.interrupt",
            "Latency from a device raising an interrupt (MSI) to its handler running on a core.");
    /** Round trip of a processor load from a device register. */
    public static final Parameter MMIO_READ = Parameter.time("cpu.mmio_read",
            "Round trip of a processor load from a device register (uncached read).");

    private CpuParameters() {
    }
}
