package org.pagefabric.calibrate;

/** The JVM is shutting down (Ctrl-C): the probes stop and release what they hold. */
public final class CalibrationInterrupted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CalibrationInterrupted() {
        super("calibration interrupted; every mapping released", null, false, false);
    }
}
