package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.EventTracer;
import org.pagefabric.sim.RollingHashTracer;
import org.pagefabric.workload.PointRun;

/**
 * A regression net below the rows, as OMNeT++'s fingerprints are: every quick point of a few
 * experiments (one or more per seed, with their own seeds) dispatches exactly the events recorded
 * in {@code src/test/resources/event-fingerprints.csv}, by the {@link RollingHashTracer} hash of
 * every event's time, receiver, band and type. A change that reorders events fails here even when
 * the rows happen to agree; the failure names the experiment, the point and the window of events
 * between two recorded checkpoints of the hash in which the first differing event lies, with
 * this run's first events there.
 *
 * <p>Regenerate only for an intended change, and say why in the commit:
 * {@code ./mvnw -q test -Dtest=EventFingerprintsTest -Dpagefabric.fingerprints=write}.
 */
class EventFingerprintsTest {
    private static final Path FILE = Path.of("src/test/resources/event-fingerprints.csv");
    private static final String HEADER = "experiment,point,events,hash,every,checkpoints";
    /** Events between two checkpoints of the hash a run takes; a recorded line keeps fewer, {@link #KEPT} at most. */
    static final int EVERY = 256;
    /** Checkpoints a recorded line keeps at most: its interval is the smallest multiple of {@link #EVERY} by a power of two that allows it. */
    private static final int KEPT = 16;
    /** Quick points recorded per experiment at most, spread over its grid. */
    private static final int POINTS = 8;
    /** Events of this run a failure quotes from the first differing window. */
    private static final int QUOTED = 3;
    /** Quick experiments of every seed (and one beyond them), a few seconds of simulation in all. */
    private static final List<String> EXPERIMENTS = List.of("part.fig7", "odp.fault", "aa.fig6a", "omx.fig6",
            "fh.fig4", "x.fork");

    @Test
    void quickPointsDispatchTheRecordedEvents() throws IOException {
        Map<String, Checkpoints> now = new LinkedHashMap<>();
        for (String id : EXPERIMENTS) {
            ExperimentSpec spec = SpecReader.bundled(id).quickened();
            for (ExperimentPoint p : sampled(Grid.expand(spec))) {
                String key = id + "," + p.index();
                now.put(key, run(spec, p, null));
            }
        }
        if (Fingerprints.writing()) {
            List<String> lines = new ArrayList<>();
            lines.add(HEADER);
            now.forEach((key, c) -> lines.add(key + "," + c.kept().line()));
            Files.write(FILE, lines, StandardCharsets.UTF_8);
            return;
        }
        Map<String, Checkpoints> recorded = read();
        List<String> differ = new ArrayList<>();
        for (Map.Entry<String, Checkpoints> e : now.entrySet()) {
            Checkpoints was = recorded.get(e.getKey());
            if (was == null) {
                differ.add(e.getKey() + " (no event fingerprint recorded)");
                continue;
            }
            long[] window = firstDifference(was, e.getValue().every(was.every()));
            if (window != null) {
                differ.add(describe(e.getKey(), was, e.getValue(), window));
            }
        }
        for (String key : recorded.keySet()) {
            if (!now.containsKey(key)) {
                differ.add(key + " (recorded, but the experiment no longer has this quick point)");
            }
        }
        assertTrue(differ.isEmpty(), "events differ from " + FILE + ": " + String.join("; ", differ));
    }

    @Test
    void theFirstDifferingWindowIsNamed() {
        Checkpoints a = stream(10_000, -1).kept();
        // 10 000 events: 39 checkpoints of 256 events are too many; every 1024 events, 9 of them
        assertEquals(1024, a.every());
        assertEquals(9, a.checkpoints().size());
        assertNull(firstDifference(a, stream(10_000, -1).every(a.every())));
        // one event changed at 1-based index 5000: the fifth window, events 4097..5120
        assertArrayEquals(new long[] {4097, 5120}, firstDifference(a, stream(10_000, 5000).every(a.every())));
        // the same events, one more at the end: the window after the last common checkpoint
        assertArrayEquals(new long[] {9217, 10_001}, firstDifference(a, stream(10_001, -1).every(a.every())));
    }

    /** At most {@link #POINTS} of {@code points}, spread evenly from the first. */
    private static List<ExperimentPoint> sampled(List<ExperimentPoint> points) {
        int step = Math.ceilDiv(points.size(), POINTS);
        List<ExperimentPoint> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i += step) {
            out.add(points.get(i));
        }
        return out;
    }

    /** Checkpoints of a synthetic stream of {@code events} events, the one at {@code changed} (1-based) altered. */
    private static Checkpoints stream(int events, int changed) {
        Recorder r = new Recorder(0, 0);
        EventHandler h = (type, arg) -> { };
        for (int i = 1; i <= events; i++) {
            r.onEvent(i, 0, h, i == changed ? 1 : 0);
        }
        return r.checkpoints();
    }

    /**
     * The 1-based event indices {@code [from, to]} holding the first event in which {@code now}
     * departs from {@code was}, or null if they agree.
     */
    static long[] firstDifference(Checkpoints was, Checkpoints now) {
        long every = was.every();
        int common = Math.min(was.checkpoints().size(), now.checkpoints().size());
        for (int k = 0; k < common; k++) {
            if (was.checkpoints().get(k) != (long) now.checkpoints().get(k)) {
                return new long[] {k * every + 1, (k + 1) * every};
            }
        }
        if (was.events() == now.events() && was.hash() == now.hash()) {
            return null;
        }
        return new long[] {common * every + 1, Math.max(was.events(), now.events())};
    }

    private static String describe(String key, Checkpoints was, Checkpoints now, long[] window) {
        String[] parts = key.split(",");
        ExperimentSpec spec = SpecReader.bundled(parts[0]).quickened();
        int index = Integer.parseInt(parts[1]);
        ExperimentPoint p = Grid.expand(spec).stream().filter(q -> q.index() == index).findFirst().orElseThrow();
        Checkpoints again = run(spec, p, window);
        return parts[0] + " point " + p.index() + " (" + p.label() + "): " + now.events() + " events, recorded "
                + was.events() + "; the first differing event is among events " + window[0] + " to " + window[1]
                + "; this run's first there: " + String.join(", ", again.quoted());
    }

    /** Runs one quick point with a tracer; with a window, also quotes this run's first events in it. */
    private static Checkpoints run(ExperimentSpec spec, ExperimentPoint p, long[] window) {
        PointRun.Started s = PointRun.start(p.profile(), p.policy(), spec.workload(), p.workloadValues(), p.seed());
        Recorder r = window == null ? new Recorder(0, 0) : new Recorder(window[0], window[0] + QUOTED - 1);
        s.simulator().setTracer(r);
        s.finish();
        return r.checkpoints();
    }

    private static Map<String, Checkpoints> read() throws IOException {
        Map<String, Checkpoints> m = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(FILE, StandardCharsets.UTF_8);
        assertEquals(HEADER, lines.get(0), FILE + ": header");
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            List<Long> cps = new ArrayList<>();
            if (!f[5].isEmpty()) {
                for (String h : f[5].split(" ")) {
                    cps.add(Long.parseUnsignedLong(h, 16));
                }
            }
            m.put(f[0] + "," + f[1], new Checkpoints(Long.parseLong(f[2]), Long.parseUnsignedLong(f[3], 16),
                    Long.parseLong(f[4]), cps, List.of()));
        }
        return m;
    }

    /**
     * A run's event fingerprint: its event count, its final hash, the hash after every
     * {@code every} events, and the events it was asked to quote.
     */
    record Checkpoints(long events, long hash, long every, List<Long> checkpoints, List<String> quoted) {
        /** The checkpoints every {@code wider} events, a multiple of {@link #every()}. */
        Checkpoints every(long wider) {
            long step = wider / every;
            List<Long> out = new ArrayList<>();
            for (long i = step - 1; i < checkpoints.size(); i += step) {
                out.add(checkpoints.get((int) i));
            }
            return new Checkpoints(events, hash, wider, out, quoted);
        }

        /** The checkpoints a recorded line keeps: at most {@link #KEPT}, at the finest interval allowing it. */
        Checkpoints kept() {
            long wider = every;
            while (events / wider > KEPT) {
                wider *= 2;
            }
            return every(wider);
        }

        String line() {
            List<String> hex = new ArrayList<>();
            for (long c : checkpoints) {
                hex.add(String.format("%016x", c));
            }
            return events + "," + String.format("%016x", hash) + "," + every + "," + String.join(" ", hex);
        }
    }

    /** The rolling hash with a checkpoint every {@value #EVERY} events, quoting the events in {@code [from, to]}. */
    private static final class Recorder implements EventTracer {
        private final RollingHashTracer hash = new RollingHashTracer();
        private final List<Long> checkpoints = new ArrayList<>();
        private final List<String> quoted = new ArrayList<>();
        private final long from;
        private final long to;

        Recorder(long from, long to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public void onEvent(long time, int band, EventHandler handler, int type) {
            hash.onEvent(time, band, handler, type);
            long n = hash.events();
            if (n >= from && n <= to && from > 0) {
                String receiver = handler instanceof Component c ? c.name() : handler.getClass().getName();
                quoted.add("#" + n + " at " + time + " ps to " + receiver + " (band " + band + ", type " + type + ")");
            }
            if (n % EVERY == 0) {
                checkpoints.add(hash.hash());
            }
        }

        Checkpoints checkpoints() {
            return new Checkpoints(hash.events(), hash.hash(), EVERY, List.copyOf(checkpoints), List.copyOf(quoted));
        }
    }
}
