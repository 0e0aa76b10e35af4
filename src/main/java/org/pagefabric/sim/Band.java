package org.pagefabric.sim;

/**
 * Priority bands: the second key of the total event order (time, band, sequence).
 *
 * <p>Events due at the same picosecond run band by band, lowest first; inside a band they run
 * in the order they were scheduled. The bands encode causality conventions that real systems
 * have and that a simulator must not leave to chance:
 *
 * <ol start="0">
 *   <li>{@link #CONTROL}: simulation control (phase changes, injected failures) takes effect
 *       before anything else at that instant.</li>
 *   <li>{@link #HARDWARE}: wire arrivals, DMA and PCIe completions, device state machines. The
 *       hardware state at an instant settles before software looks at it.</li>
 *   <li>{@link #KERNEL}: interrupt handlers, tasklets, drivers, MMU notifiers: software that
 *       reacts to the hardware events of the same instant.</li>
 *   <li>{@link #APPLICATION}: resumption of application processes (ranks) and user-level
 *       runtime code: an application sees everything the hardware and kernel did at that
 *       instant.</li>
 *   <li>{@link #TIMEOUT}: timers (retransmission, RNR back-off). An acknowledgement that
 *       arrives at the very picosecond its timer expires wins, as on a real NIC where the
 *       arrival is processed before the timer wheel ticks.</li>
 *   <li>{@link #OBSERVER}: statistics sampling and end-of-run hooks see the settled state.</li>
 * </ol>
 *
 * An event scheduled with zero delay in a band lower than the running one still runs before
 * later bands at the same instant: the order is over the pending events.
 */
public final class Band {
    /** Simulation control. */
    public static final int CONTROL = 0;
    /** Hardware state machines; the default band. */
    public static final int HARDWARE = 1;
    /** Kernel and driver software. */
    public static final int KERNEL = 2;
    /** Application processes and user-level runtimes. */
    public static final int APPLICATION = 3;
    /** Timers. */
    public static final int TIMEOUT = 4;
    /** Statistics and observation. */
    public static final int OBSERVER = 5;
    /** Number of bands. */
    public static final int COUNT = 6;

    private static final String[] NAMES = {"control", "hardware", "kernel", "application", "timeout", "observer"};

    private Band() {
    }

    /** Name of a band, for traces and errors. */
    public static String name(int band) {
        return band >= 0 && band < COUNT ? NAMES[band] : "band" + band;
    }
}
