package org.pagefabric.experiment;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.BoundedRun;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.SearchedParameter;
import org.pagefabric.workload.Workload;

/**
 * Runs one point as its workload asks: once, or, when it leaves a parameter to a search
 * ({@link Workload#search}: {@code dht-insert}'s {@code onload_cores: best}), once per candidate
 * value, keeping the best by the declared metric (the earlier candidate among equals), and
 * reporting the best candidate's row with the parameter as given and the choice in the
 * declared column.
 *
 * <p>Each candidate is a simulation of its own. When its run bounds its own end
 * ({@link BoundedRun}), a candidate is stopped as soon as its clock proves it cannot win:
 * candidates run best-first, in the order of the value their bound allows before they start
 * (then in candidate order), so a good one is found early and the others are stopped soon;
 * the bound is checked every 1/64 of the time after which a candidate, still unsettled, would
 * only tie the best. The choice is the one an exhaustive search makes (order and stops change
 * only which tails are not simulated). The reported row is the chosen candidate's own: its
 * run in the search is completed to its last event, exactly as a run of that value alone
 * (running in slices changes no event's order), so the winner is not simulated twice.
 */
public final class CandidateSearch {
    private CandidateSearch() {
    }

    /**
     * The outcome of a search.
     *
     * @param value     the chosen candidate
     * @param metric    its metric, unrounded; NaN when a candidate's run failed verification (its transport gave up,
     *                  or data was lost), which ends the search with that run's row
     * @param cutTrials candidates stopped early because they could no longer win
     * @param row       the chosen candidate's row, from its run completed to its last event
     */
    public record Choice(Object value, double metric, int cutTrials, Map<String, Object> row) {
    }

    /**
     * The row of the point: {@link PointRun#run(Profile, String, Workload, Map, long)}, or the
     * best candidate's row if the workload leaves a parameter to a search.
     */
    public static Map<String, Object> row(Profile profile, String policy, Workload workload, Map<String, ?> params,
                                          long seed) {
        Map<String, Object> values = workload.resolve(params);
        SearchedParameter s = workload.search(values);
        if (s == null) {
            return PointRun.run(profile, policy, workload, values, seed);
        }
        Choice c = search(profile, policy, workload, values, seed, s, true);
        Map<String, Object> row = new LinkedHashMap<>(c.row());
        row.put(s.parameter(), values.get(s.parameter()));
        row.put(s.chosenColumn(), c.value());
        return row;
    }

    /**
     * Runs the candidates of {@code s} and chooses; with {@code cut}, stops those that can no
     * longer win (see the class comment), else runs every one to its end.
     */
    public static Choice search(Profile profile, String policy, Workload workload, Map<String, Object> values,
                                long seed, SearchedParameter s, boolean cut) {
        List<Object> candidates = s.candidates();
        int n = candidates.size();
        double[] optimistic = new double[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            if (cut) {
                PointRun.Started t = PointRun.start(profile, policy, workload, with(values, s, candidates.get(i)), seed);
                optimistic[i] = t.run() instanceof BoundedRun b ? b.bestReachable() : 0;
                t.abandon();
            }
        }
        int sign = s.higherIsBetter() ? 1 : -1;
        Arrays.sort(order, (x, y) -> {
            int byBound = Double.compare(sign * optimistic[y], sign * optimistic[x]);
            return byBound != 0 ? byBound : Integer.compare(x, y);
        });
        int best = -1;
        double bestValue = Double.NaN;
        Map<String, Object> bestRow = null;
        int cutTrials = 0;
        for (int i : order) {
            PointRun.Started t = PointRun.start(profile, policy, workload, with(values, s, candidates.get(i)), seed);
            Simulator sim = t.simulator();
            BoundedRun bounded = t.run() instanceof BoundedRun b ? b : null;
            // An earlier candidate wins a tie, so it must be strictly worse to lose.
            boolean winsTies = best < 0 || i < best;
            long deadline = cut && bounded != null && best >= 0 ? bounded.hopelessAfter(bestValue, winsTies) : Time.NEVER;
            boolean lost = false;
            if (deadline == Time.NEVER) {
                sim.run();
            } else {
                lost = runUntilLost(t, bounded, deadline, bestValue, winsTies, sign);
            }
            if (lost) {
                cutTrials++;
                t.abandon();
                continue;
            }
            if (t.stuckReason() != null || bounded != null && !bounded.settled() && !t.run().verified()) {
                // a run that failed on the wire or lost its data chooses nothing: the point is this
                // candidate's unverified row, as a run of that value alone would give
                return new Choice(candidates.get(i), Double.NaN, cutTrials, t.finish());
            }
            if (bounded != null && !bounded.settled()) {
                SimProcess.checkNoDeadlock(sim);
                throw new IllegalStateException(workload.name() + " with " + s.parameter() + "=" + candidates.get(i)
                        + " ended before its " + s.metric() + " was final");
            }
            SimProcess.checkNoDeadlock(sim);
            Map<String, Object> row = bounded != null ? null : t.finish();
            double value = bounded != null ? bounded.searchValue() : ((Number) row.get(s.metric())).doubleValue();
            if (best < 0 || sign * value > sign * bestValue || value == bestValue && i < best) {
                bestValue = value;
                best = i;
                // the new leader's row: the rest of its events, then its columns
                bestRow = row != null ? row : t.finish();
            }
            t.abandon();
        }
        return new Choice(candidates.get(best), bestValue, cutTrials, bestRow);
    }

    /**
     * Runs a candidate in slices until it settles (false) or its bound proves it cannot beat
     * {@code best} (true; left unfinished).
     */
    private static boolean runUntilLost(PointRun.Started t, BoundedRun run, long deadline, double best,
                                        boolean winsTies, int sign) {
        Simulator sim = t.simulator();
        long slice = Math.max(1, (deadline - t.startedAt()) / 64);
        long at = t.startedAt();
        while (true) {
            at = Math.min(deadline, at + slice);
            sim.runUntil(at);
            if (run.settled() || sim.pendingEvents() == 0) {
                return false;
            }
            if (at >= deadline) {
                // Unsettled at the deadline: it ends worse, so it cannot win.
                return true;
            }
            double most = sign * run.bestReachable();
            if (winsTies ? most < sign * best : most <= sign * best) {
                return true;
            }
        }
    }

    private static Map<String, Object> with(Map<String, Object> values, SearchedParameter s, Object candidate) {
        Map<String, Object> p = new LinkedHashMap<>(values);
        p.put(s.parameter(), candidate);
        return p;
    }
}
