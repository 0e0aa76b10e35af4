package org.pagefabric.sim.process;

import java.util.Locale;

/**
 * How {@link SimProcess} bodies suspend. Both give the same simulation, event for event; they
 * differ only in speed.
 *
 * <p>The default is {@link #CONTINUATION} when this JVM lets the application use
 * {@code jdk.internal.vm.Continuation} (the launcher passes
 * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}), {@link #THREAD} otherwise. The
 * system property {@value #PROPERTY} ({@code continuation} or {@code thread}) forces one.
 */
public enum ProcessImpl {
    /** A {@code jdk.internal.vm.Continuation} run on the simulator thread: about a hundred ns per resume. */
    CONTINUATION("continuation"),
    /** A virtual thread per process with a strict hand-off: portable, microseconds per resume. */
    THREAD("thread");

    /** System property that forces an implementation. */
    public static final String PROPERTY = "pagefabric.process.impl";

    private final String id;

    ProcessImpl(String id) {
        this.id = id;
    }

    /** The name used by {@value #PROPERTY} and the benchmarks. */
    public String id() {
        return id;
    }

    /**
     * Parses {@code continuation} or {@code thread} (any case).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static ProcessImpl parse(String id) {
        String s = id == null ? "" : id.trim().toLowerCase(Locale.ROOT);
        for (ProcessImpl impl : values()) {
            if (impl.id.equals(s)) {
                return impl;
            }
        }
        throw new IllegalArgumentException("unknown process implementation '" + id
                + "': expected continuation or thread");
    }

    /** Whether {@link #CONTINUATION} works in this JVM; probed once. */
    public static boolean continuationsAvailable() {
        return Probe.AVAILABLE;
    }

    /** The implementation new processes get: {@value #PROPERTY} if set, else the best available. */
    public static ProcessImpl selected() {
        String forced = System.getProperty(PROPERTY);
        if (forced != null && !forced.isBlank()) {
            return parse(forced);
        }
        return continuationsAvailable() ? CONTINUATION : THREAD;
    }

    /**
     * A coroutine of this kind running {@code body}.
     *
     * @param name names the coroutine in errors and, for threads, the thread
     * @throws IllegalStateException for {@link #CONTINUATION} when continuations are unavailable
     */
    public Coroutine newCoroutine(String name, Runnable body) {
        requireAvailable();
        return switch (this) {
            case CONTINUATION -> new ContinuationCoroutine(name, body);
            case THREAD -> new ThreadHandoffCoroutine(name, body);
        };
    }

    /**
     * Checks that this implementation works in this JVM.
     *
     * @throws IllegalStateException for {@link #CONTINUATION} when continuations are unavailable
     */
    public void requireAvailable() {
        if (this == CONTINUATION && !continuationsAvailable()) {
            throw new IllegalStateException("continuation processes need the JVM flag "
                    + "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED (or -D" + PROPERTY + "=thread)");
        }
    }

    /** Holder idiom: the probe runs on first use, and at most once. */
    private static final class Probe {
        static final boolean AVAILABLE = probe();

        private static boolean probe() {
            if (!Object.class.getModule().isExported("jdk.internal.vm", ProcessImpl.class.getModule())) {
                return false;
            }
            try {
                return ContinuationCoroutine.selfTest();
            } catch (LinkageError | RuntimeException e) {
                // Exported yet unusable (a VM without continuation support): fall back.
                return false;
            }
        }
    }
}
