package org.pagefabric.workload.aaapps;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagefabric.hw.iommu.aa.AccessKind;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.rma.StallWatch;

/**
 * What the get-logging applications (logged gets, the fault-tolerant sort) share: issuing a get
 * and having its data logged at the target under the run's scheme, and checking afterwards
 * that each target's log holds exactly the data each get returned, in the order each source
 * issued them. The check keeps, per (target, source) pair, an order-sensitive chain of the
 * entries the source expects and one of the entries the log received.
 */
abstract class GetLogState implements Workload.Run, AppFabric.Hooks {
    final int processes;
    final AppScheme scheme;
    final long[] expectedChain;
    final long[] loggedChain;
    AppFabric fabric;
    int nodes;
    long expectedEntries;
    long loggedEntries;
    long lastLogged;
    long gets;
    long badGets;
    long end;
    long processesDone;
    final StallWatch stall = new StallWatch();

    GetLogState(int processes, AppScheme scheme) {
        this.processes = processes;
        this.scheme = scheme;
        boolean logs = scheme != AppScheme.NONE;
        this.expectedChain = new long[logs ? processes * processes : 0];
        this.loggedChain = new long[logs ? processes * processes : 0];
    }

    /**
     * One get of {@code words} words from {@code target} into {@code dest}, then whatever the
     * scheme does to have it logged at the target; checks the data against the target's memory.
     */
    void loggedGet(ProcessContext ctx, int rank, int target, int region, int at, int words, long[] dest, int destAt,
                   long seq) {
        fabric.get(ctx, rank, target, region, at, words, dest, destAt, seq);
        gets++;
        long[] mem = memory(target, region);
        if (!java.util.Arrays.equals(dest, destAt, destAt + words, mem, at, at + words)) {
            badGets++;
        }
        if (scheme == AppScheme.NONE) {
            return;
        }
        int pair = target * processes + rank;
        expectedChain[pair] = AppWorkload.chain(expectedChain[pair], seq, AppFabric.digest(dest, destAt, words, 0));
        expectedEntries++;
        if (scheme == AppScheme.RMA || scheme == AppScheme.AM) {
            fabric.sendBack(ctx, rank, target, seq, dest, destAt, words);
        }
    }

    /** After a process's last get: waits for its logging puts (RMA) or keeps handling messages until all is logged (AM). */
    void finish(ProcessContext ctx, int rank, long interval, long[] nextPoll) {
        if (scheme == AppScheme.RMA) {
            fabric.flushLogs(ctx, rank);
        }
        processesDone++;
        if (scheme == AppScheme.AM) {
            long waitingSince = ctx.now();
            while ((processesDone < processes || loggedEntries < expectedEntries)
                    && !stall.lostForGood(ctx.now(), waitingSince)) {
                if (nextPoll[0] > ctx.now()) {
                    ctx.sleep(nextPoll[0] - ctx.now());
                }
                pollIfAm(ctx, rank, nextPoll, interval);
            }
        }
        end = Math.max(end, ctx.now());
    }

    /** Under AM, handles the waiting messages when the polling interval has passed. */
    void pollIfAm(ProcessContext ctx, int rank, long[] nextPoll, long interval) {
        if (scheme == AppScheme.AM && ctx.now() >= nextPoll[0]) {
            ctx.sleep(fabric.pollInbox(rank));
            nextPoll[0] = ctx.now() + interval;
        }
    }

    @Override
    public void putLanded(int target, int source, long page, long value) {
        throw new IllegalStateException("no puts are counted here");
    }

    @Override
    public long fetchAdd(int target, long page) {
        throw new IllegalStateException("no counters here");
    }

    @Override
    public long akv(int target, int source, long page, long value) {
        throw new IllegalStateException("no key-value store here");
    }

    @Override
    public long handleLogEntry(int target, int kind, int source, long seq, long digest, int bytes) {
        if (kind != AccessKind.GET_DATA) {
            throw new IllegalStateException("get log of process " + target + " holds a " + AccessKind.name(kind));
        }
        logged(target, source, seq, digest);
        return 0; // the IOMMU copied the data; the poller only reads the entry
    }

    @Override
    public void logged(int target, int source, long seq, long digest) {
        int pair = target * processes + source;
        loggedChain[pair] = AppWorkload.chain(loggedChain[pair], seq, digest);
        loggedEntries++;
        lastLogged = Math.max(lastLogged, fabric.simulator().now());
        stall.progress(fabric.simulator().now());
    }

    /** When the gets and their logging were complete, picoseconds. */
    long finishedAt() {
        return scheme == AppScheme.ACTIVE ? Math.max(end, fabric.lastHandledAt()) : Math.max(end, lastLogged);
    }

    /** Whether every get returned its target's data and every target's log holds exactly those gets, in order. */
    boolean logsVerified() {
        return badGets == 0 && processesDone == processes && loggedEntries == expectedEntries
                && java.util.Arrays.equals(expectedChain, loggedChain);
    }

    @Override
    public double bytesPerSecond() {
        return 0;
    }

    Map<String, Object> common() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("logged_entries", loggedEntries);
        return m;
    }
}
