package org.pagefabric.calibrate;

/** One family of host measurements, run with warm-up and repetitions. */
interface Probe {
    /** Short name shown in the table ({@code mlock}, {@code touch}, ...). */
    String name();

    /** The quantities it measures, in words, for the skipped list. */
    String measures();

    /**
     * Runs the measurement and records its results in {@code ctx}.
     *
     * @throws ProbeSkipped if the host lacks what the whole probe needs
     * @throws CalibrationInterrupted if the JVM is shutting down
     */
    void run(ProbeContext ctx);
}
