package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * Random programs run on the real kernel and on a deliberately naive reference (a sorted set of
 * (time, band, seq) records): the dispatch order, cancel results and clocks must match exactly.
 *
 * <p>The program is driven by one random stream consumed in dispatch order, so both kernels
 * see the same decisions as long as they agree; the first disagreement makes the logs diverge.
 */
class KernelModelPropertyTest {

    /** The operations a program uses, implemented by the kernel and by the reference. */
    interface Kernel {
        long now();

        Object schedule(long delay, int band, int id);

        Object scheduleAt(long time, int band, int id);

        boolean cancel(Object handle);

        void runUntil(long until);

        void stop();

        int pending();

        void attach(Program p);
    }

    /** The real simulator, with one shared handler: type = band, arg = program id. */
    static final class Real implements Kernel {
        final Simulator sim;
        Program program;
        final EventHandler handler;

        Real(FutureEventSet fes) {
            sim = fes == null ? new Simulator(1, 16) : new Simulator(1, fes, 16);
            handler = (type, arg) -> program.onEvent((int) arg, type);
            // The band the kernel reports must be the band the event was scheduled in.
            sim.setTracer((time, band, h, type) -> {
                if (band != type) {
                    throw new AssertionFailedError("tracer band " + band + " for an event scheduled in " + type);
                }
            });
        }

        @Override public long now() { return sim.now(); }
        @Override public Object schedule(long delay, int band, int id) { return sim.schedule(delay, band, handler, band, id); }
        @Override public Object scheduleAt(long time, int band, int id) { return sim.scheduleAt(time, band, handler, band, id); }
        @Override public boolean cancel(Object handle) { return sim.cancel((Long) handle); }
        @Override public void runUntil(long until) { sim.runUntil(until); }
        @Override public void stop() { sim.stop(); }
        @Override public int pending() { return sim.pendingEvents(); }
        @Override public void attach(Program p) { program = p; }
    }

    /** The specification, written as plainly as possible. */
    static final class Reference implements Kernel {
        record Ev(long time, int band, long seq, int id) {
        }

        final TreeSet<Ev> queue = new TreeSet<>(Comparator.comparingLong(Ev::time).thenComparingInt(Ev::band)
                .thenComparingLong(Ev::seq));
        long now;
        long seq;
        boolean stop;
        Program program;

        @Override public long now() { return now; }
        @Override public Object schedule(long delay, int band, int id) { return scheduleAt(now + delay, band, id); }

        @Override
        public Object scheduleAt(long time, int band, int id) {
            Ev e = new Ev(time, band, seq++, id);
            queue.add(e);
            return e;
        }

        @Override public boolean cancel(Object handle) { return queue.remove((Ev) handle); }
        @Override public void stop() { stop = true; }
        @Override public int pending() { return queue.size(); }
        @Override public void attach(Program p) { program = p; }

        @Override
        public void runUntil(long until) {
            stop = false;
            while (!stop && !queue.isEmpty()) {
                Ev e = queue.first();
                if (e.time() > until) {
                    now = until;
                    return;
                }
                queue.pollFirst();
                now = e.time();
                program.onEvent(e.id(), e.band());
            }
        }
    }

    /**
     * Shape of a random program.
     *
     * @param initialActs  decisions taken from outside before the first run
     * @param budget       how many events it schedules in all
     * @param maxSchedules most events scheduled per decision
     * @param maxDelay   largest non-zero delay (small values make many ties)
     * @param cancelRate probability, per decision, of cancelling some recent event
     * @param stopRate   probability that a handler calls stop()
     */
    record Profile(String name, int initialActs, int budget, int maxSchedules, int maxDelay, double cancelRate,
            double stopRate) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Profile TIES = new Profile("ties", 20, 4_000, 3, 3, 0.3, 0.01);
    static final Profile MIXED = new Profile("mixed", 20, 4_000, 3, 200, 0.4, 0.005);
    static final Profile CANCEL_HEAVY = new Profile("cancel-heavy", 6_000, 30_000, 7, 100_000, 0.75, 0.0);

    /** The random program: the same seed makes the same decisions given the same dispatch order. */
    static final class Program {
        final SplittableRandom rnd;
        final Kernel k;
        final Profile profile;
        final List<String> log = new ArrayList<>();
        final List<Object> handles = new ArrayList<>();
        /** Outer time: where the driver runs until; never behind either kernel's clock. */
        long horizon;

        Program(long seed, Kernel k, Profile profile) {
            this.rnd = new SplittableRandom(seed);
            this.k = k;
            this.profile = profile;
            k.attach(this);
        }

        void onEvent(int id, int band) {
            log.add(k.now() + "/" + band + "/" + id);
            act(true);
        }

        /** Schedule some events, maybe cancel some, maybe stop. */
        void act(boolean inHandler) {
            int n = rnd.nextInt(profile.maxSchedules() + 1);
            for (int i = 0; i < n && handles.size() < profile.budget(); i++) {
                int band = rnd.nextInt(Band.COUNT);
                long delay = delay();
                int id = handles.size();
                handles.add(inHandler || rnd.nextBoolean() ? k.schedule(delay, band, id) : k.scheduleAt(k.now() + delay, band, id));
            }
            while (!handles.isEmpty() && rnd.nextDouble() < profile.cancelRate()) {
                // Mostly recent events (likely pending), sometimes any (likely stale).
                int size = handles.size();
                int victim = rnd.nextInt(4) == 0 ? rnd.nextInt(size) : size - 1 - rnd.nextInt(Math.min(size, 64));
                log.add("cancel " + victim + " -> " + k.cancel(handles.get(victim)));
            }
            if (inHandler && rnd.nextDouble() < profile.stopRate()) {
                log.add("stop");
                k.stop();
            }
        }

        long delay() {
            int r = rnd.nextInt(10);
            if (r < 3) {
                return 0;
            }
            return r < 6 ? 1 + rnd.nextInt(Math.min(3, profile.maxDelay())) : rnd.nextLong(profile.maxDelay() + 1);
        }

        /** External driver: runs in slices, scheduling from outside between them. */
        void drive() {
            for (int i = 0; i < profile.initialActs(); i++) {
                act(false);
            }
            int rounds = 0;
            while (k.pending() > 0 && rounds++ < 100_000) {
                horizon += rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(profile.maxDelay() * 4L + 1);
                k.runUntil(horizon);
                // A drained kernel's clock is not compared here: see KnownKernelBugsTest.
                log.add("pause " + k.pending() + (k.pending() > 0 ? " at " + k.now() : ""));
                // From outside, at the horizon or later: both clocks are at or before it.
                if (rnd.nextInt(3) == 0 && handles.size() < profile.budget()) {
                    int band = rnd.nextInt(Band.COUNT);
                    int id = handles.size();
                    handles.add(k.scheduleAt(horizon + (rnd.nextBoolean() ? 0 : delay()), band, id));
                }
            }
            k.runUntil(Time.NEVER);
            log.add("end " + k.pending());
        }
    }

    static Stream<Arguments> cases() {
        Stream<Arguments> ties = LongStream.rangeClosed(1, 10).mapToObj(s -> Arguments.of(TIES, s));
        Stream<Arguments> mixed = LongStream.rangeClosed(11, 20).mapToObj(s -> Arguments.of(MIXED, s));
        Stream<Arguments> heavy = LongStream.rangeClosed(21, 22).mapToObj(s -> Arguments.of(CANCEL_HEAVY, s));
        return Stream.concat(Stream.concat(ties, mixed), heavy);
    }

    static List<String> runReal(Profile profile, long seed, FutureEventSet fes) {
        Program p = new Program(seed, new Real(fes), profile);
        p.drive();
        return p.log;
    }

    static List<String> runReference(Profile profile, long seed) {
        Program p = new Program(seed, new Reference(), profile);
        p.drive();
        return p.log;
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("cases")
    void kernelMatchesReferenceModel(Profile profile, long seed) {
        List<String> expected = runReference(profile, seed);
        CancellationTest.CountingHeap heap = new CancellationTest.CountingHeap();
        List<String> actual = runReal(profile, seed, heap);
        // Compare the first difference rather than two huge lists.
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                assertEquals(context(expected, i), context(actual, i), "first difference at log line " + i);
            }
        }
        assertEquals(expected.size(), actual.size());
        // The program must actually have exercised the kernel.
        long events = expected.stream().filter(l -> Character.isDigit(l.charAt(0))).count();
        assertTrue(events > 2_000, "only " + events + " events ran");
        assertTrue(expected.stream().anyMatch(l -> l.endsWith("-> true")), "no successful cancel");
        if (profile == CANCEL_HEAVY) {
            assertTrue(heap.compactions > 0, "the cancel-heavy programs no longer make the kernel compact");
        }
    }

    private static String context(List<String> log, int i) {
        return String.join("\n", log.subList(Math.max(0, i - 5), Math.min(log.size(), i + 3)));
    }

    /**
     * The harness can fail: a future event set that ignores the sequence part of the key (so
     * ties within a band come out in heap order) must be caught.
     */
    @Test
    void harnessDetectsAKernelThatBreaksTiesWrongly() {
        FutureEventSet broken = new FutureEventSet() {
            final QuaternaryHeap inner = new QuaternaryHeap(16);
            long next;

            // Keeps the band and slot parts of the key (bits 60-62 and 0-25) and replaces the
            // sequence (bits 26-59) with a decreasing counter: ties within a band then run
            // last-scheduled first.
            static final long SEQ_FIELD = ((1L << 34) - 1) << 26;

            long scramble(long key) {
                return (key & ~SEQ_FIELD) | (((1L << 33) - next++) << 26);
            }

            @Override public void add(long time, long key) { inner.add(time, scramble(key)); }
            @Override public int size() { return inner.size(); }
            @Override public long minTime() { return inner.minTime(); }
            @Override public long minKey() { return inner.minKey(); }
            @Override public void removeMin() { inner.removeMin(); }
            @Override public void replaceMin(long time, long key) { inner.replaceMin(time, scramble(key)); }
            @Override public void removeIf(LongPredicate dead) { inner.removeIf(dead); }
            @Override public void clear() { inner.clear(); }
        };
        assertNotEquals(runReference(TIES, 1), runReal(TIES, 1, broken));
    }

    @Test
    void sameSeedSameLogAndDifferentSeedDifferentLog() {
        assertEquals(runReal(MIXED, 5, null), runReal(MIXED, 5, null));
        assertNotEquals(runReal(MIXED, 5, null), runReal(MIXED, 6, null));
    }
}
