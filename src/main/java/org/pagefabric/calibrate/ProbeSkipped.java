package org.pagefabric.calibrate;

/** Thrown by a probe when the host lacks what it needs; the calibration goes on without it. */
final class ProbeSkipped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProbeSkipped(String reason) {
        super(reason, null, false, false);
    }
}
