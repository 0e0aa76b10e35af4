package org.pagefabric.sim;

import java.util.ArrayList;
import java.util.List;

/** Records which labelled events ran, and when, so that tests can compare whole orders. */
final class EventLog {
    final Simulator sim;
    final List<String> entries = new ArrayList<>();

    EventLog(Simulator sim) {
        this.sim = sim;
    }

    /** A handler that logs {@code label@now} and then runs {@code then} (may be null). */
    EventHandler probe(String label, Runnable then) {
        return (type, arg) -> {
            entries.add(label + "@" + sim.now());
            if (then != null) {
                then.run();
            }
        };
    }

    EventHandler probe(String label) {
        return probe(label, null);
    }

    /** The labels in the order they ran, without times. */
    List<String> labels() {
        List<String> out = new ArrayList<>(entries.size());
        for (String e : entries) {
            out.add(e.substring(0, e.indexOf('@')));
        }
        return out;
    }
}
