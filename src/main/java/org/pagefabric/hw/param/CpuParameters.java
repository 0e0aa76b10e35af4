package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** Host processors. */
public final class CpuParameters {
    /** Cores per node. */
    public static final Parameter CORES = Parameter.count("cpu.cores",
            "Cores per node available to ranks and kernel work.").positive().between("1", "1024");
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

    /** The part of cpu.interrupt spent before the interrupt reaches the core. */
    public static final Parameter INTERRUPT_DELIVERY = Parameter.time("cpu.interrupt_delivery",
            "From a device's MSI write to the interrupt reaching a core; the part of cpu.interrupt before entry.");
    /** Leaving an idle state when work arrives at an idle core. */
    public static final Parameter IDLE_EXIT = Parameter.time("cpu.idle_exit",
            "Time an idle core takes to leave its idle state when work arrives (C-state or WFI exit).");
    /** One iteration of a busy-polling loop. */
    public static final Parameter POLL_ITERATION = Parameter.time("cpu.poll_iteration",
            "One iteration of a busy-polling loop: at worst, how late a spinning thread notices a new event.").positive();

    /** Entries of a core's main (last-level) data TLB. */
    public static final Parameter TLB_ENTRIES = Parameter.count("cpu.tlb.entries",
            "Entries of a core's main (last-level) TLB, which caches page translations for the core's loads and stores.")
            .positive();
    /** Associativity of the main TLB. */
    public static final Parameter TLB_WAYS = Parameter.count("cpu.tlb.ways",
            "Ways of the main TLB (entries / ways sets, indexed by the low page-number bits).").positive();
    /** A page-table walk after a main-TLB miss. */
    public static final Parameter TLB_WALK = Parameter.time("cpu.tlb.walk",
            "A page-table walk after a main-TLB miss, beyond what a hit costs.");

    /** One double-precision multiply-add of a compiled dense inner loop (application compute). */
    public static final Parameter MULTIPLY_ADD = Parameter.time("cpu.multiply_add",
            "One double-precision multiply-add in a compiled dense loop such as a matrix multiplication's inner loop.");
    /** One comparison (and move) of a compiled sort or merge loop (application compute). */
    public static final Parameter SORT_COMPARE = Parameter.time("cpu.sort_compare",
            "One key comparison, with its share of element moves, in a compiled quicksort or merge of integers.");

    private CpuParameters() {
    }
}
