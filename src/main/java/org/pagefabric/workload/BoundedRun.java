package org.pagefabric.workload;

/**
 * A run that can say, while its simulation is under way, how good its searched metric can still
 * end up, so that a search over a parameter ({@link SearchedParameter}) can stop a candidate that
 * can no longer win instead of simulating it to its end. Every bound must be safe: a bound that
 * promises less than the run reaches would make the search choose wrongly.
 */
public interface BoundedRun extends Workload.Run {
    /** The searched metric, unrounded; final once {@link #settled()}. */
    double searchValue();

    /** Whether {@link #searchValue()} is final: the rest of the simulation cannot change it. */
    boolean settled();

    /** The best value (in the metric's direction) the run can still end with, from the simulation's state now. */
    double bestReachable();

    /**
     * A simulated time after which the run, not settled by then, ends worse than {@code value}
     * (if {@code winsTies}, strictly worse; else no better), or {@link org.pagefabric.sim.Time#NEVER}
     * if there is no such time.
     */
    long hopelessAfter(double value, boolean winsTies);
}
