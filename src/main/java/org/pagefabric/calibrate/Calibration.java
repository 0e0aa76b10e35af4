package org.pagefabric.calibrate;

import java.lang.foreign.Arena;
import java.util.List;

/**
 * Runs every probe on the running host, in a fixed order, inside one {@link LiveMappings}
 * session: a probe the host does not allow is skipped with its reason and the others still run;
 * whatever happens, nothing stays mapped, locked or open afterwards.
 */
public final class Calibration {
    /** Default timed repetitions: the whole calibration takes a few seconds. */
    public static final int DEFAULT_REPETITIONS = 30;

    /**
     * How to run.
     *
     * @param repetitions timed repetitions per quantity, at least 1
     * @param warmup untimed repetitions before them
     * @param quick smaller regions (for tests and a first look)
     */
    public record Options(int repetitions, int warmup, boolean quick) {
        /** Validates the counts. */
        public Options {
            if (repetitions < 1) {
                throw new IllegalArgumentException("--repetitions must be at least 1, not " + repetitions);
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("warm-up repetitions must not be negative");
            }
        }

        /** {@code repetitions} timed, with a warm-up of a fifth of them (at least 2). */
        public static Options of(int repetitions, boolean quick) {
            return new Options(repetitions, Math.max(2, repetitions / 5), quick);
        }
    }

    private Calibration() {
    }

    /** The probes, in the order they run. */
    static List<Probe> probes(boolean quick) {
        int pages = quick ? 128 : 1024;
        return List.of(new SyscallProbe(), new MlockProbe(pages), new TouchProbe(pages), new MadviseProbe(pages),
                new MincoreProbe(pages), new UserfaultfdProbe(quick ? 8 : 32), new ThpProbe());
    }

    /** Calibrates the running host with the process-wide mapping registry. */
    public static CalibrationResult run(Options options) {
        return run(options, probes(options.quick()), LiveMappings.GLOBAL, HostInfo.detect());
    }

    /**
     * Runs the given probes.
     *
     * @throws CalibrationInterrupted if the JVM began to shut down (everything is released first)
     */
    static CalibrationResult run(Options options, List<Probe> probes, LiveMappings mappings, HostInfo host) {
        try (Arena arena = Arena.ofConfined()) {
            ProbeContext ctx = new ProbeContext(options.repetitions(), options.warmup(), arena, mappings, host);
            if (!host.linux()) {
                for (Probe p : probes) {
                    ctx.skip(p.name(), p.measures(), host.unsupportedReason());
                }
            } else {
                try (LiveMappings.Session session = mappings.open()) {
                    for (Probe p : probes) {
                        try {
                            p.run(ctx);
                        } catch (ProbeSkipped e) {
                            ctx.skip(p.name(), p.measures(), e.getMessage());
                        }
                    }
                }
            }
            return new CalibrationResult(host, options.repetitions(), ctx.measurements(), ctx.skipped(), ctx.notes());
        }
    }
}
