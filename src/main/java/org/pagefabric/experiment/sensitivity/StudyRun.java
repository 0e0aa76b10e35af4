package org.pagefabric.experiment.sensitivity;

import java.util.List;
import java.util.Map;

/**
 * One run of the experiment in a sensitivity study: the nominal profile, one parameter at one end
 * of its range, or one sample of the Latin hypercube.
 *
 * @param kind       which of the three
 * @param label      how reports name it: {@code nominal}, {@code os.syscall low}, {@code sample 3}
 * @param parameter  the parameter moved, for {@link Kind#LOW} and {@link Kind#HIGH}; else {@code null}
 * @param comparison the comparison rows, in the spec's reference order; empty if the run failed
 * @param failure    why the run produced no rows (a varied value the workload refuses, a point
 *                   that threw), or {@code null}
 */
public record StudyRun(Kind kind, String label, String parameter, List<Map<String, Object>> comparison,
        String failure) {
    /** What was varied. */
    public enum Kind {
        /** Every parameter at its profile's value. */
        NOMINAL,
        /** One parameter at the low end of its range, the others nominal. */
        LOW,
        /** One parameter at the high end of its range, the others nominal. */
        HIGH,
        /** Every varied parameter at once, at one sample of the Latin hypercube. */
        SAMPLE
    }

    /** Copies the rows. */
    public StudyRun {
        comparison = List.copyOf(comparison);
    }
}
