package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.List;
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
