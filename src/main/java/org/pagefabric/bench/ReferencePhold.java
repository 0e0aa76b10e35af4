package org.pagefabric.bench;

import java.util.PriorityQueue;

/**
 * The reference engine: the textbook discrete-event loop over {@link PriorityQueue} with one
 * object per event, running the same PHOLD workload. It is what the kernel's speed is quoted
 * against, because on a shared machine a ratio is steadier than an absolute rate.
 */
public final class ReferencePhold {
    private static final class Event implements Comparable<Event> {
        final long time;
        final long seq;
        final int lp;

        Event(long time, long seq, int lp) {
            this.time = time;
            this.seq = seq;
            this.lp = lp;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Event> queue;
    private final PholdWorkload work;
    private long now;
    private long seq;

    /** Sets up {@code inFlight} events, exactly as {@link KernelPhold} does. */
    public ReferencePhold(int inFlight, long seed) {
        queue = new PriorityQueue<>(inFlight + 16);
        work = new PholdWorkload(PholdWorkload.lpsFor(inFlight), seed);
        for (int e = 0; e < inFlight; e++) {
            long d = work.next(e % work.lps());
            queue.add(new Event(PholdWorkload.delay(d), seq++, PholdWorkload.dest(d)));
        }
    }

    /** Runs exactly {@code events} events. */
    public void run(long events) {
        for (long i = 0; i < events; i++) {
            Event e = queue.poll();
            now = e.time;
            long d = work.next(e.lp);
            queue.add(new Event(now + PholdWorkload.delay(d), seq++, PholdWorkload.dest(d)));
        }
    }

    /** Virtual time reached, for cross-checking against the kernel. */
    public long now() {
        return now;
    }
}
