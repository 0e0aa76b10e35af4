package org.pagefabric.hw.os;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A userfaultfd opened with the UNMAP and REMOVE event features: the user-space analog of an MMU
 * notifier, as libfabric's MR cache uses it. The kernel queues an event for every registered
 * range that munmap, brk or madvise(DONTNEED) removes; the monitor learns about it only when it
 * drains the queue, later (the window in which a stale registration can still be used).
 */
public final class UserfaultFd {
    private final AddressSpace space;
    private final ArrayList<long[]> ranges = new ArrayList<>();
    private final ArrayDeque<UserfaultEvent> queue = new ArrayDeque<>();
    private boolean closed;

    UserfaultFd(AddressSpace space) {
        this.space = space;
    }

    /** Registers {@code [start, start+length)} for events. */
    public void register(long start, long length) {
        if (closed) {
            throw new IllegalStateException("userfaultfd is closed");
        }
        if (length <= 0) {
            throw new IllegalArgumentException("empty userfaultfd range");
        }
        ranges.add(new long[] {start, start + length});
    }

    /** Unregisters exactly the ranges overlapping {@code [start, start+length)}. */
    public void unregister(long start, long length) {
        long end = start + length;
        ranges.removeIf(r -> r[0] < end && r[1] > start);
    }

    /** Closes the descriptor: no more events. */
    public void close() {
        closed = true;
        ranges.clear();
        space.removeUserfaultFd(this);
    }

    /** Queued events not yet read. */
    public int pending() {
        return queue.size();
    }

    /** The oldest unread event, or null. */
    public UserfaultEvent poll() {
        return queue.poll();
    }

    /** Reads every queued event, oldest first. */
    public List<UserfaultEvent> drain() {
        List<UserfaultEvent> out = new ArrayList<>(queue);
        queue.clear();
        return out;
    }

    /** Queues one event per registered range overlapping {@code [start, end)}, clipped to it. */
    void deliver(UserfaultEvent.Kind kind, long start, long end) {
        for (long[] r : ranges) {
            if (r[0] < end && r[1] > start) {
                queue.add(new UserfaultEvent(kind, Math.max(start, r[0]), Math.min(end, r[1])));
            }
        }
        if (kind == UserfaultEvent.Kind.UNMAP) {
            // the unmapped part is no longer registered, as with the real VMA going away
            List<long[]> kept = new ArrayList<>();
            for (long[] r : ranges) {
                if (r[0] < start) {
                    kept.add(new long[] {r[0], Math.min(r[1], start)});
                }
                if (r[1] > end) {
                    kept.add(new long[] {Math.max(r[0], end), r[1]});
                }
            }
            ranges.clear();
            ranges.addAll(kept);
        }
    }
}
