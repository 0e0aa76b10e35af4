package org.pagefabric.report.timeline;

import java.io.IOException;
import java.io.Writer;
import java.util.function.Consumer;
import org.agrona.collections.Long2LongHashMap;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.comm.RankObserver;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.KernelObserver;

/**
 * Records the timeline of one run: attached to the job as it is built ({@link Job#watch}), it hears
 * every rank's calls and every node's kernel, and keeps at most a fixed number of events. Tracks:
 * one per rank (registration, waits, compute), one per node's NIC (each operation from post to
 * completion) and one per node's kernel (pins, CPU page faults), and a counter of the job's pinned
 * memory, sampled whenever a rank posts or reaps.
 */
public final class TimelineRecorder implements Consumer<Job>, RankObserver {
    /** Events kept by default: a few hundred thousand open quickly in Perfetto. */
    public static final int DEFAULT_CAPACITY = 500_000;
    /**
     * Events kept for the timeline of a report: its JSON beside the page stays a few megabytes,
     * and the drawing's size does not depend on it.
     */
    public static final int REPORT_CAPACITY = 100_000;

    private final TimelineEvents events;
    private Job job;
    /** Per rank and work request, when it was posted (rank in the top 16 bits). */
    private final Long2LongHashMap postedAt = new Long2LongHashMap(-1);
    private long lastPinned = -1;

    /** A recorder that keeps at most {@code capacity} events. */
    public TimelineRecorder(int capacity) {
        this.events = new TimelineEvents(capacity);
    }

    @Override
    public void accept(Job j) {
        if (job != null) {
            return;
        }
        job = j;
        for (int r = 0; r < j.ranks().size(); r++) {
            Rank rank = j.rank(r);
            rank.observe(this);
        }
        for (int n = 0; n < j.cluster().size(); n++) {
            int node = n;
            j.cluster().node(n).kernel().observe(new KernelObserver() {
                @Override
                public void pinned(AddressSpace as, long va, int pinned, long costPs) {
                    events.add(TimelineKind.PIN, Tracks.kernel(node), now(), costPs, pinned);
                }

                @Override
                public void faulted(AddressSpace as, long va, Fault fault) {
                    events.add(TimelineKind.FAULT, Tracks.kernel(node), now(), fault.costPs(), va);
                }
            });
        }
    }

    /** Whether a job was heard (the run built one). */
    public boolean attached() {
        return job != null;
    }

    /** Events kept. */
    public int events() {
        return events.size();
    }

    /** Events that came after the cap and were not kept. */
    public long dropped() {
        return events.dropped();
    }

    /** The cap on events kept. */
    public int capacity() {
        return events.capacity();
    }

    /** Writes the timeline as Chrome trace-event JSON. */
    public void write(Writer out, String title) throws IOException {
        new ChromeTraceWriter(events, job).write(out, title);
    }

    /**
     * The timeline drawn for a page (see {@link TimelineFigure}).
     *
     * @throws IllegalStateException if no job was heard
     */
    public TimelineFigure figure() {
        if (job == null) {
            throw new IllegalStateException("no job was heard: nothing to draw");
        }
        int[] nodeOfRank = new int[job.ranks().size()];
        for (int r = 0; r < nodeOfRank.length; r++) {
            nodeOfRank[r] = job.rank(r).node().id();
        }
        return new TimelineSvg(events, nodeOfRank, job.cluster().size()).draw();
    }

    private long now() {
        return job.simulator().now();
    }

    private void samplePinned() {
        long p = job.pinnedBytes();
        if (p != lastPinned) {
            lastPinned = p;
            events.add(TimelineKind.PINNED, Tracks.JOB, now(), p, 0);
        }
    }

    @Override
    public void posted(Rank rank, long startPs, long endPs, long wrId) {
        if (endPs > startPs) {
            events.add(TimelineKind.REGISTRATION, Tracks.rank(rank.id()), startPs, endPs - startPs, wrId);
        }
        postedAt.put(key(rank, wrId), endPs);
        samplePinned();
    }

    @Override
    public void reaped(Rank rank, long startPs, long endPs, CompletionEntry wc) {
        if (endPs > startPs) {
            events.add(TimelineKind.WAIT, Tracks.rank(rank.id()), startPs, endPs - startPs, wc.wrId());
        }
        long posted = postedAt.remove(key(rank, wc.wrId()));
        if (posted >= 0) {
            long done = Math.max(posted, Math.min(wc.timePs(), endPs));
            events.add(wc.ok() ? TimelineKind.TRANSFER : TimelineKind.FAILED_TRANSFER,
                    Tracks.nic(rank.node().id()), posted, done - posted, wc.bytes());
        }
        samplePinned();
    }

    @Override
    public void computed(Rank rank, long startPs, long endPs) {
        if (endPs > startPs) {
            events.add(TimelineKind.COMPUTE, Tracks.rank(rank.id()), startPs, endPs - startPs, 0);
        }
    }

    private static long key(Rank rank, long wrId) {
        return ((long) rank.id() << 48) ^ wrId;
    }

    @Override
    public void write(Rank rank, long nowPs, Rank target, long localVa, long remoteVa, long length, long wrId) {
    }

    @Override
    public void read(Rank rank, long nowPs, Rank target, long localVa, long remoteVa, long length, long wrId) {
    }

    @Override
    public void send(Rank rank, long nowPs, Rank target, long localVa, long length, long wrId) {
    }

    @Override
    public void receive(Rank rank, long nowPs, Rank source, long va, long length, long wrId) {
    }

    @Override
    public void awaiting(Rank rank, long nowPs, boolean sendQueue) {
    }
}
