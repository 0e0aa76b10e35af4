package org.pagefabric.report.timeline;

import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

/**
 * The events of a timeline as columns of primitives, so recording one allocates nothing: each
 * event is a kind, a track, a start and a duration (or a counter value), and an argument. At most
 * {@link #capacity()} events are kept; those after are counted, not kept.
 */
final class TimelineEvents {
    private final int capacity;
    private final IntArrayList kind = new IntArrayList();
    private final IntArrayList track = new IntArrayList();
    private final LongArrayList start = new LongArrayList();
    private final LongArrayList duration = new LongArrayList();
    private final LongArrayList arg = new LongArrayList();
    private long dropped;

    TimelineEvents(int capacity) {
        this.capacity = capacity;
    }

    /** Adds an event; {@code duration} is a counter's value for a counter kind. */
    void add(TimelineKind k, int trackId, long startPs, long durationPs, long argument) {
        if (kind.size() >= capacity) {
            dropped++;
            return;
        }
        kind.addInt(k.ordinal());
        track.addInt(trackId);
        start.addLong(startPs);
        duration.addLong(durationPs);
        arg.addLong(argument);
    }

    int size() {
        return kind.size();
    }

    int capacity() {
        return capacity;
    }

    /** Events that came after the cap was reached. */
    long dropped() {
        return dropped;
    }

    TimelineKind kind(int i) {
        return TimelineKind.VALUES[kind.getInt(i)];
    }

    int track(int i) {
        return track.getInt(i);
    }

    long start(int i) {
        return start.getLong(i);
    }

    long duration(int i) {
        return duration.getLong(i);
    }

    long arg(int i) {
        return arg.getLong(i);
    }
}
