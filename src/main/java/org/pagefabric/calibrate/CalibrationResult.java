package org.pagefabric.calibrate;

import java.util.List;
import java.util.Optional;

/**
 * What a calibration found: the host, every measurement, every measurement skipped with its
 * reason, and remarks on how the probes were sized.
 *
 * @param host the host measured
 * @param repetitions timed repetitions per quantity
 * @param measurements the results, in probe order
 * @param skipped what the host did not allow, and why
 * @param notes how the probes ran (sizes, limits, descriptors)
 */
public record CalibrationResult(HostInfo host, int repetitions, List<Measurement> measurements,
        List<Skipped> skipped, List<String> notes) {
    /** Copies the lists. */
    public CalibrationResult {
        measurements = List.copyOf(measurements);
        skipped = List.copyOf(skipped);
        notes = List.copyOf(notes);
    }

    /** The measurement of {@code quantity} by {@code probe}, if it was made. */
    public Optional<Measurement> find(String probe, String quantity) {
        return measurements.stream().filter(m -> m.probe().equals(probe) && m.quantity().equals(quantity)).findFirst();
    }
}
