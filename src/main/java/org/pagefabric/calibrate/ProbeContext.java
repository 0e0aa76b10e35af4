package org.pagefabric.calibrate;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

/**
 * What a probe works with: the repetition counts, a C-library call context for the calling
 * thread, the registry of live mappings, and the lists its results and skips go to.
 */
final class ProbeContext {
    private final int repetitions;
    private final int warmup;
    private final Libc libc;
    private final LiveMappings mappings;
    private final HostInfo host;
    private final List<Measurement> measurements = new ArrayList<>();
    private final List<Skipped> skipped = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    ProbeContext(int repetitions, int warmup, Arena arena, LiveMappings mappings, HostInfo host) {
        this.repetitions = repetitions;
        this.warmup = warmup;
        this.libc = new Libc(arena);
        this.mappings = mappings;
        this.host = host;
    }

    /** Timed repetitions per quantity. */
    int repetitions() {
        return repetitions;
    }

    /** Untimed repetitions before them. */
    int warmup() {
        return warmup;
    }

    /** The calling thread's C-library context. */
    Libc libc() {
        return libc;
    }

    /** Where mappings and descriptors are registered. */
    LiveMappings mappings() {
        return mappings;
    }

    /** Facts about the host (limits, THP mode). */
    HostInfo host() {
        return host;
    }

    /** Records a result. */
    void add(Measurement m) {
        measurements.add(m);
    }

    /** Records a result from its samples. */
    Measurement add(String probe, String quantity, String unit, double[] samples) {
        Measurement m = new Measurement(probe, quantity, unit, samples);
        measurements.add(m);
        return m;
    }

    /** Records a measurement the host did not allow. */
    void skip(String probe, String what, String reason) {
        skipped.add(new Skipped(probe, what, reason));
    }

    /** Records a remark on how a probe was run (sizes chosen, limits met). */
    void note(String text) {
        notes.add(text);
    }

    List<Measurement> measurements() {
        return measurements;
    }

    List<Skipped> skipped() {
        return skipped;
    }

    List<String> notes() {
        return notes;
    }
}
