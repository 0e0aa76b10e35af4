package org.pagefabric.report.timeline;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.TreeSet;
import org.pagefabric.comm.Job;

/**
 * Writes timeline events as Chrome trace-event JSON (the "JSON Object Format": a
 * {@code traceEvents} list of complete events "X" and counters "C", with "M" metadata naming
 * processes and threads). Times are microseconds with six decimals, the simulator's picoseconds.
 */
final class ChromeTraceWriter {
    private final TimelineEvents events;
    private final Job job;

    ChromeTraceWriter(TimelineEvents events, Job job) {
        this.events = events;
        this.job = job;
    }

    void write(Writer out, String title) throws IOException {
        out.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":");
        out.write(quote(title));
        out.write(",\"events\":" + events.size() + ",\"cap\":" + events.capacity() + ",\"dropped\":" + events.dropped());
        out.write("},\n\"traceEvents\":[\n");
        boolean first = true;
        TreeSet<Integer> tracks = new TreeSet<>();
        for (int i = 0; i < events.size(); i++) {
            tracks.add(events.track(i));
        }
        for (int t : tracks) {
            first = comma(out, first);
            out.write("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid(t) + ",\"tid\":" + t + ",\"args\":{\"name\":"
                    + quote(trackName(t)) + "}}");
            out.write(",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + pid(t) + ",\"tid\":" + t
                    + ",\"args\":{\"sort_index\":" + t + "}}");
        }
        int nodes = job == null ? 0 : job.cluster().size();
        for (int n = 0; n < nodes; n++) {
            first = comma(out, first);
            out.write("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + n + ",\"args\":{\"name\":\"node " + n + "\"}}");
        }
        first = comma(out, first);
        out.write("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + nodes + ",\"args\":{\"name\":\"job\"}}");
        for (int i = 0; i < events.size(); i++) {
            first = comma(out, first);
            event(out, i, nodes);
        }
        out.write("\n]}\n");
        out.flush();
    }

    private void event(Writer out, int i, int nodes) throws IOException {
        TimelineKind k = events.kind(i);
        int t = events.track(i);
        if (k == TimelineKind.PINNED) {
            out.write("{\"ph\":\"C\",\"name\":\"pinned memory\",\"cat\":\"memory\",\"pid\":" + nodes + ",\"ts\":"
                    + micros(events.start(i)) + ",\"args\":{\"MiB\":"
                    + String.format(Locale.ROOT, "%.6f", events.duration(i) / (double) (1 << 20)) + "}}");
            return;
        }
        out.write("{\"ph\":\"X\",\"name\":" + quote(k.label()) + ",\"cat\":\"" + k.category() + "\",\"pid\":" + pid(t)
                + ",\"tid\":" + t + ",\"ts\":" + micros(events.start(i)) + ",\"dur\":" + micros(events.duration(i))
                + ",\"args\":{" + args(k, events.arg(i)) + "}}");
    }

    private static String args(TimelineKind k, long arg) {
        return switch (k) {
            case TRANSFER, FAILED_TRANSFER -> "\"bytes\":" + arg;
            case PIN -> "\"pages\":" + arg;
            case FAULT -> "\"address\":\"0x" + Long.toHexString(arg) + "\"";
            case REGISTRATION, WAIT -> "\"wr_id\":" + arg;
            default -> "";
        };
    }

    private int pid(int track) {
        if (track >= Tracks.JOB) {
            return job == null ? 0 : job.cluster().size();
        }
        if (track >= Tracks.KERNEL_BASE) {
            return track - Tracks.KERNEL_BASE;
        }
        if (track >= Tracks.NIC_BASE) {
            return track - Tracks.NIC_BASE;
        }
        return job == null ? 0 : job.rank(track).node().id();
    }

    private static String trackName(int track) {
        if (track >= Tracks.JOB) {
            return "job";
        }
        if (track >= Tracks.KERNEL_BASE) {
            return "kernel";
        }
        if (track >= Tracks.NIC_BASE) {
            return "NIC";
        }
        return "rank " + track;
    }

    /** Picoseconds as microseconds, exactly: six decimals. */
    static String micros(long ps) {
        long us = ps / 1_000_000;
        long frac = ps % 1_000_000;
        return us + "." + String.format(Locale.ROOT, "%06d", frac);
    }

    private static boolean comma(Writer out, boolean first) throws IOException {
        if (!first) {
            out.write(",\n");
        }
        return false;
    }

    private static String quote(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}
