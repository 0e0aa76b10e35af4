package org.pagefabric.sim;

import java.util.regex.Pattern;
import org.pagefabric.sim.stat.Accumulator;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.stat.TimeWeightedAverage;

/**
 * A named part of the simulated system: a node, a NIC, a queue pair. Names are hierarchical and
 * stable ({@code node12.nic.qp3}) because they key three things that must not depend on how the
 * model was built: the component's random stream, its statistics, and determinism traces.
 *
 * <p>Subclasses are event-driven state machines: they implement {@link #handle(int, long)} and
 * schedule themselves through {@link #schedule}.
 */
public abstract class Component implements EventHandler {
    private static final Pattern LOCAL_NAME = Pattern.compile("[A-Za-z0-9_\\-\\[\\]]+");

    /** The kernel this component lives in. */
    protected final Simulator sim;
    private final String name;
    /** This component's id in the simulator's handler table: events carry it, not a reference. */
    final int handlerId;
    private RandomStream random;

    /** A top-level component. */
    protected Component(Simulator sim, String name) {
        this(sim, null, name);
    }

    /** A component named {@code parent.name + "." + localName}. */
    protected Component(Simulator sim, Component parent, String localName) {
        if (!LOCAL_NAME.matcher(localName).matches()) {
            throw new IllegalArgumentException("component name '" + localName
                    + "' must be letters, digits, '_', '-' or brackets (dots separate levels)");
        }
        this.sim = sim;
        this.name = parent == null ? localName : parent.name + "." + localName;
        this.handlerId = sim.register(this);
    }

    /** The hierarchical name. */
    public final String name() {
        return name;
    }

    /** The simulator. */
    public final Simulator simulator() {
        return sim;
    }

    /** This component's random stream, derived from the master seed and {@link #name()}. */
    public final RandomStream random() {
        if (random == null) {
            random = sim.randomStream(name);
        }
        return random;
    }

    /** Schedules an event to this component in the {@link Band#HARDWARE} band. */
    protected final long schedule(long delay, int type, long arg) {
        return sim.schedule(delay, Band.HARDWARE, this, type, arg);
    }

    /** Schedules an event to this component in a given band. */
    protected final long schedule(long delay, int band, int type, long arg) {
        return sim.schedule(delay, band, this, type, arg);
    }

    /** Declares a counter named {@code name.stat}. */
    protected final Counter counter(String stat, String unit, String description) {
        return sim.statistics().counter(name + "." + stat, unit, description);
    }

    /** Declares an accumulator (count, sum, min, max, mean, standard deviation). */
    protected final Accumulator accumulator(String stat, String unit, String description) {
        return sim.statistics().accumulator(name + "." + stat, unit, description);
    }

    /** Declares a latency histogram recording picoseconds. */
    protected final LatencyHistogram latency(String stat, String description) {
        return sim.statistics().latency(name + "." + stat, description);
    }

    /** Declares a time-weighted average of a level (queue depth, pinned bytes). */
    protected final TimeWeightedAverage level(String stat, String unit, String description) {
        return sim.statistics().level(name + "." + stat, unit, description);
    }

    @Override
    public String toString() {
        return name;
    }
}
