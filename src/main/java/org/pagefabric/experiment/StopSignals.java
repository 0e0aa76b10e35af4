package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a request to stop a run, handled without shutting the JVM down:
 * the run stops and its finished rows are written, plots and report included, by a JVM that is
 * still whole. Writing them from a shutdown hook fails ("Shutdown in progress") once the JVM's
 * own hooks, ImageIO's among them, have run. A second signal ends the process at once.
 */
final class StopSignals implements AutoCloseable {
    /** The conventional exit status of a process ended by Ctrl-C (128 + SIGINT). */
    static final int INTERRUPTED = 130;

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile boolean received;

    private StopSignals() {
    }

    /**
     * Routes SIGINT and SIGTERM to {@code stop} until {@link #close()}, or returns {@code null}
     * where the platform lets no handler be installed (the caller falls back to a shutdown hook).
     */
    static StopSignals install(Runnable stop) {
        StopSignals s = new StopSignals();
        SignalHandler handler = sig -> {
            if (s.received) {
                Runtime.getRuntime().halt(INTERRUPTED);
            }
            s.received = true;
            stop.run();
        };
        try {
            for (String name : List.of("INT", "TERM")) {
                Signal signal = new Signal(name);
                s.previous.add(Signal.handle(signal, handler));
                s.signals.add(signal);
            }
            return s;
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            s.close();
            return null;
        }
    }

    /**
     * Runs {@code run}, turning Ctrl-C (or SIGTERM) into {@code cancel}, then hands its result to
     * {@code finish} in a JVM that is not shutting down. Where no signal handler can be installed,
     * a shutdown hook cancels instead and holds the JVM until {@code finish} is done.
     */
    static <T> T handling(Runnable cancel, Supplier<T> run, Consumer<T> finish) {
        StopSignals signals = install(cancel);
        if (signals != null) {
            try (signals) {
                T result = run.get();
                finish.accept(result);
                return result;
            }
        }
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            cancel.run();
            try {
                // The JVM exits when the hook returns: wait until the results are on disk.
                finished.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "pagefabric-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            T result = run.get();
            finish.accept(result);
            return result;
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C came: the hook is running and has just been released.
            }
        }
    }

    /** Whether a signal asked the run to stop. */
    boolean received() {
        return received;
    }

    /** Puts the handlers that were there before back. */
    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
