package org.pagefabric.workload;

import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A workload that holds its {@link WorkloadDescriptor} and reads its values typed: it declares
 * itself once and writes what it does, {@link #start(Job, Params, LatencyHistogram)}, on
 * {@link Params} rather than on the runner's map.
 */
public abstract class AbstractWorkload implements Workload {
    private final WorkloadDescriptor descriptor;

    /** @param descriptor what the workload declares about itself */
    protected AbstractWorkload(WorkloadDescriptor descriptor) {
        this.descriptor = descriptor;
    }

    @Override
    public final WorkloadDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public final Run start(Job job, Map<String, Object> params, LatencyHistogram latencies) {
        return start(job, descriptor.values(params), latencies);
    }

    /**
     * Starts the workload's processes on {@code job}.
     *
     * @param job       the job the ranks belong to
     * @param p         the point's resolved values
     * @param latencies where each timed operation's latency goes (picoseconds)
     * @return what the runner reads once the simulation ends
     */
    protected abstract Run start(Job job, Params p, LatencyHistogram latencies);

    @Override
    public final SearchedParameter search(Map<String, Object> params) {
        return search(descriptor.values(params));
    }

    /**
     * The parameter of these values left to a search by the experiment layer; {@code null}, as
     * by default, when the point is one run.
     *
     * @throws IllegalArgumentException if the values leave the search no candidate
     */
    protected SearchedParameter search(Params p) {
        return null;
    }

    @Override
    public final Profile profile(Map<String, Object> params, Profile profile) {
        return profile(descriptor.values(params), profile);
    }

    /** The profile a point with these values runs on: {@code profile} unless a parameter stands for a setting below. */
    protected Profile profile(Params p, Profile profile) {
        return profile;
    }

    @Override
    public final void check(Map<String, Object> params, Profile profile) {
        check(descriptor.values(params), profile);
    }

    /**
     * Checks values whose valid range depends on the hardware; nothing by default.
     *
     * @throws IllegalArgumentException naming the parameter and its valid values
     */
    protected void check(Params p, Profile profile) {
    }
}
