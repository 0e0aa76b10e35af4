package org.pagefabric.workload.trace;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.comm.RankObserver;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.MemoryHookListener;
import org.pagefabric.hw.os.UserAllocator;

/**
 * Writes down what a job's ranks did, as a trace the {@code trace} workload replays: every call
 * a rank makes through {@link Rank} and every memory call its hooked C library sees, each with
 * the time it began, and the job's pinned bytes when the next one began. Watch jobs with
 * {@link Job#watch} to record one; a recording holds one job.
 */
public final class TraceRecorder implements Consumer<Job>, RankObserver {
    private static final long KIB = 1024;

    private final String source;
    private final List<TraceRecord> records = new ArrayList<>();
    private Job job;
    private int jobs;

    /** A recorder whose trace says it was taken from {@code source} (a command line). */
    public TraceRecorder(String source) {
        this.source = source;
    }

    /** Attaches to the first job built; later ones are counted and refused by {@link #write}. */
    @Override
    public void accept(Job j) {
        jobs++;
        if (job != null) {
            return;
        }
        job = j;
        for (Rank r : j.ranks()) {
            r.observe(this);
            r.hooks().addListener(new Hooks(r.id()));
        }
    }

    /** Jobs seen so far. */
    public int jobs() {
        return jobs;
    }

    /**
     * Writes the trace of the job recorded.
     *
     * @throws IllegalStateException if no job, or more than one, was built while recording, or the
     *                               job made no call a trace holds
     */
    public void write(Writer out) throws IOException {
        if (jobs != 1) {
            throw new IllegalStateException("a trace records one job; " + jobs + " were built (a workload whose"
                    + " parameter is searched, or more than one point, cannot be recorded as one trace)");
        }
        if (records.isEmpty()) {
            throw new IllegalStateException("the run made no comm.Rank call and no hooked memory call (a workload"
                    + " that carries its own datagrams): there is nothing to record");
        }
        sampleLast();
        int ranks = job.ranks().size();
        long[] segments = new long[ranks];
        long[] brkStarts = new long[ranks];
        for (int i = 0; i < ranks; i++) {
            segments[i] = job.rank(i).segment();
            brkStarts[i] = job.rank(i).process().brkStart();
        }
        TraceHeader h = new TraceHeader(ranks, job.cluster().size(), job.rank(0).segmentLength(), true, segments,
                brkStarts, new UserAllocator.Config(128 * KIB, true, 128 * KIB, 128 * KIB, false,
                UserAllocator.Linkage.DYNAMIC), source);
        TraceWriter.write(out, h, records);
    }

    private void add(long atPs, int rank, TraceOp op, long addr, long len, int peer, long raddr, boolean sendQueue) {
        sampleLast();
        records.add(new TraceRecord("", 0, atPs, 0, rank, op, addr, len, 0, 0, peer, raddr, 0, true, Advice.DONTNEED,
                sendQueue, TraceRecord.NONE));
    }

    /** The last record's pinned bytes are those when the next record begins (or the job ends). */
    private void sampleLast() {
        int last = records.size() - 1;
        if (last >= 0 && records.get(last).pinnedBytes() == TraceRecord.NONE) {
            TraceRecord r = records.get(last);
            records.set(last, new TraceRecord(r.file(), r.line(), r.atPs(), r.gapPs(), r.rank(), r.op(), r.addr(), r.len(),
                    r.newAddr(), r.newLen(), r.peer(), r.raddr(), r.durationPs(), r.hooked(), r.advice(),
                    r.sendQueue(), job.pinnedBytes()));
        }
    }

    @Override
    public void write(Rank rank, long nowPs, Rank target, long localVa, long remoteVa, long length, long wrId) {
        add(nowPs, rank.id(), TraceOp.PUT, localVa, length, target.id(), remoteVa, false);
    }

    @Override
    public void read(Rank rank, long nowPs, Rank target, long localVa, long remoteVa, long length, long wrId) {
        add(nowPs, rank.id(), TraceOp.GET, localVa, length, target.id(), remoteVa, false);
    }

    @Override
    public void send(Rank rank, long nowPs, Rank target, long localVa, long length, long wrId) {
        add(nowPs, rank.id(), TraceOp.SEND, localVa, length, target.id(), 0, false);
    }

    @Override
    public void receive(Rank rank, long nowPs, Rank source, long va, long length, long wrId) {
        add(nowPs, rank.id(), TraceOp.RECV, va, length, source.id(), 0, false);
    }

    @Override
    public void awaiting(Rank rank, long nowPs, boolean sendQueue) {
        add(nowPs, rank.id(), TraceOp.WAIT, 0, 0, 0, 0, sendQueue);
    }

    /** One rank's hooked memory calls. */
    private final class Hooks implements MemoryHookListener {
        private final int rank;

        Hooks(int rank) {
            this.rank = rank;
        }

        @Override
        public void unmapped(Call call, long start, long length) {
            long now = job.simulator().now();
            switch (call) {
                case MUNMAP -> add(now, rank, TraceOp.MUNMAP, start, length, 0, 0, false);
                // the heap shrinks to start: the new break
                case BRK -> add(now, rank, TraceOp.BRK, start, 0, 0, 0, false);
                case MADVISE -> add(now, rank, TraceOp.MADVISE, start, length, 0, 0, false);
                case MMAP -> throw new IllegalStateException("mmap reported as an unmap");
            }
        }

        @Override
        public void mapped(Call call, long start, long length) {
            long now = job.simulator().now();
            switch (call) {
                case MMAP -> add(now, rank, TraceOp.MMAP, start, length, 0, 0, false);
                // the heap grew by [start, start+length): the new break is its end
                case BRK -> add(now, rank, TraceOp.BRK, start + length, 0, 0, 0, false);
                default -> throw new IllegalStateException(call + " reported as a map");
            }
        }
    }
}
