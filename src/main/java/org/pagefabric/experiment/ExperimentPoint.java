package org.pagefabric.experiment;

import java.util.Map;
import org.pagefabric.config.Profile;

/**
 * One run of an experiment: a combination of grid values, a policy and a repetition, with
 * everything needed to run it on any thread (its own derived profile, its seed).
 *
 * @param index          position in the experiment's run order, 0-based; rows come in this order
 * @param point          the grid point (values × policy) it repeats; shared by its repetitions
 * @param repetition     which repetition, 0-based
 * @param seed           the seed: the spec's seed plus the repetition
 * @param policy         the registration policy
 * @param workloadValues the workload parameter values the grid sets (others take their defaults)
 * @param profileValues  the profile grid values as written ({@code link.loss → "1%"}), in grid order
 * @param profile        the profile with the profile values applied
 * @param label          a short human-readable name, e.g. {@code size_B=4096 policy=pin-all rep=0}
 */
public record ExperimentPoint(int index, int point, int repetition, long seed, String policy,
        Map<String, Object> workloadValues, Map<String, String> profileValues, Profile profile, String label) {
    /** Copies the maps (insertion order kept). */
    public ExperimentPoint {
        workloadValues = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(workloadValues));
        profileValues = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(profileValues));
    }
}
