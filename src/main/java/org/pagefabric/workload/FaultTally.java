package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.reg.FaultPhases;
import org.pagefabric.sim.Time;

/**
 * The on-demand-paging drivers' fault counts and phase times summed over a job's ranks at one
 * instant, so a workload can take the difference over its timed part: the number of faults, their
 * mean resolution time and its breakdown per phase (001 "Execution Time Breakdown").
 */
final class FaultTally {
    /** Column of faults resolved during the timed part. */
    static final String FAULTS = "faults";
    /** Column of the mean time from a fault to its QP's resume. */
    static final String FAULT_US = "fault_us";
    /** Columns of the mean time per phase, in {@link FaultPhases.Phase} order. */
    static final List<String> PHASE_COLUMNS = List.of("fault_interrupt_us", "fault_event_us", "fault_page_in_us",
            "fault_mapping_us", "fault_resume_us");

    private final long faults;
    private final long[] phasePs = new long[FaultPhases.Phase.values().length];

    private FaultTally(List<FaultPhases> drivers) {
        long n = 0;
        Set<FaultPhases> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (FaultPhases d : drivers) {
            if (d == null || !seen.add(d)) { // ranks sharing a node share its driver
                continue;
            }
            n += d.resolvedFaults();
            for (FaultPhases.Phase p : FaultPhases.Phase.values()) {
                phasePs[p.ordinal()] += d.phasePs(p);
            }
        }
        faults = n;
    }

    /** The tally now of the drivers the job's policy pages in with, the node's of each rank. */
    static FaultTally now(Job job) {
        return now(driversOf(job));
    }

    /** The tally now of {@code drivers}, each counted once; a {@code null} one counts nothing. */
    static FaultTally now(List<FaultPhases> drivers) {
        return new FaultTally(drivers);
    }

    /**
     * The on-demand-paging driver of each rank's node under the job's policy, in rank order
     * ({@code null} under a policy that pins).
     */
    static List<FaultPhases> driversOf(Job job) {
        List<FaultPhases> drivers = new ArrayList<>();
        for (Rank r : job.ranks()) {
            drivers.add(job.policy().onDemandPaging(r.node()));
        }
        return drivers;
    }

    /**
     * The columns for what happened between {@code before} and {@code after}: the fault count,
     * the mean fault time and the mean per phase (blank without faults).
     */
    static void put(FaultTally before, FaultTally after, Map<String, Object> row) {
        if (before == null || after == null) { // the timed part never ran
            row.put(FAULT_US, null);
            row.put(FAULTS, null);
            PHASE_COLUMNS.forEach(c -> row.put(c, null));
            return;
        }
        long n = after.faults - before.faults;
        row.put(FAULT_US, null);
        row.put(FAULTS, n);
        long total = 0;
        for (int i = 0; i < PHASE_COLUMNS.size(); i++) {
            long ps = after.phasePs[i] - before.phasePs[i];
            total += ps;
            row.put(PHASE_COLUMNS.get(i), n == 0 ? null : round(Time.toMicros(Math.round((double) ps / n))));
        }
        row.put(FAULT_US, n == 0 ? null : round(Time.toMicros(Math.round((double) total / n))));
    }

    private static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }
}
