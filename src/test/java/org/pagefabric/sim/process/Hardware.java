package org.pagefabric.sim.process;

import java.util.function.LongConsumer;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;

/** A test stand-in for an event-driven device: runs an action from a hardware-band event. */
final class Hardware extends Component {
    private final LongConsumer action;

    Hardware(Simulator sim, String name, LongConsumer action) {
        super(sim, name);
        this.action = action;
    }

    /** Schedules the action with {@code arg} after {@code delay}, in the hardware band. */
    void post(long delay, long arg) {
        schedule(delay, 0, arg);
    }

    @Override
    public void handle(int type, long arg) {
        action.accept(arg);
    }
}
