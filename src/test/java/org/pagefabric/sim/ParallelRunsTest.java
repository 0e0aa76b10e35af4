package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class ParallelRunsTest {
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();

    private void noteWorker() {
        workers.add(Thread.currentThread());
    }

    private void assertWorkersGone() {
        assertFalse(workers.isEmpty());
        for (Thread t : workers) {
            assertFalse(t.isAlive(), t.getName() + " still alive after the call returned");
            assertFalse(t == Thread.currentThread(), "tasks ran on the caller's thread");
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3, 4, 8, 64})
    void resultsComeBackInTaskOrder(int threads) throws Exception {
        int count = 40;
        List<Integer> out = ParallelRuns.run(threads, count, i -> {
            noteWorker();
            // Uneven durations so that tasks finish out of order.
            Thread.sleep((count - i) % 4);
            return i * i;
        });
        assertEquals(IntStream.range(0, count).map(i -> i * i).boxed().toList(), out);
        assertTrue(workers.size() <= Math.min(threads, count), workers.size() + " threads used");
        assertWorkersGone();
    }

    @Test
    void callablesAndNullResults() throws Exception {
        List<Callable<String>> tasks = List.of(() -> "a", () -> null, () -> "c");
        List<String> out = ParallelRuns.run(2, tasks);
        assertEquals(3, out.size());
        assertEquals("a", out.get(0));
        assertNull(out.get(1));
        assertEquals("c", out.get(2));
        assertThrows(UnsupportedOperationException.class, () -> out.set(0, "x"));
        assertEquals(List.of(), ParallelRuns.run(4, 0, i -> i));
        assertEquals(List.of(), ParallelRuns.run(4, List.<Callable<Integer>>of()));
    }

    @Test
    void usesExactlyTheRequestedParallelism() throws Exception {
        // Three tasks can only all pass a 3-party barrier if three workers run at once.
        CyclicBarrier barrier = new CyclicBarrier(3);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        List<Integer> out = ParallelRuns.run(3, 30, i -> {
            noteWorker();
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                if (i < 3) {
                    barrier.await(10, TimeUnit.SECONDS);
                } else {
                    Thread.sleep(1);
                }
                return i;
            } finally {
                running.decrementAndGet();
            }
        });
        assertEquals(30, out.size());
        assertEquals(3, maxRunning.get());
        assertEquals(3, workers.size());
        assertWorkersGone();
    }

    @Test
    void invalidArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ParallelRuns.run(0, 5, i -> i));
        assertThrows(IllegalArgumentException.class, () -> ParallelRuns.run(-1, 5, i -> i));
        assertThrows(IllegalArgumentException.class, () -> ParallelRuns.run(2, -1, i -> i));
        assertThrows(NullPointerException.class, () -> ParallelRuns.run(2, 3, null));
        List<Callable<Integer>> withNull = new ArrayList<>();
        withNull.add(() -> 1);
        withNull.add(null);
        assertThrows(NullPointerException.class, () -> ParallelRuns.run(2, withNull));
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 4})
    void failureIsRethrownWithItsIndexAndCause(int threads) {
        IOException boom = new IOException("disk full");
        ParallelRuns.RunFailedException e = assertThrows(ParallelRuns.RunFailedException.class,
                () -> ParallelRuns.run(threads, 10, i -> {
                    noteWorker();
                    if (i == 6) {
                        throw boom;
                    }
                    return i;
                }));
        assertEquals(6, e.index());
        assertSame(boom, e.getCause());
        assertTrue(e.getMessage().contains("run 6 of 10"), e.getMessage());
        assertWorkersGone();
    }

    /**
     * Task 7 fails at once, task 3 only later: the lowest index is reported anyway, whatever the
     * thread count, so that a failing batch reports the same failure every time.
     */
    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 4, 10})
    void theLowestFailingIndexIsReported(int threads) {
        AtomicInteger started = new AtomicInteger();
        ParallelRuns.RunFailedException e = assertThrows(ParallelRuns.RunFailedException.class,
                () -> ParallelRuns.run(threads, 10, i -> {
                    noteWorker();
                    started.incrementAndGet();
                    if (i == 7) {
                        throw new IllegalStateException("seven");
                    }
                    if (i == 3) {
                        Thread.sleep(100);
                        throw new IllegalStateException("three");
                    }
                    return i;
                }));
        assertEquals(3, e.index());
        assertEquals("three", e.getCause().getMessage());
        if (threads == 1) {
            assertEquals(4, started.get(), "no task after the failed one is started");
        }
        assertWorkersGone();
    }

    @Test
    void errorsAreReportedToo() {
        ParallelRuns.RunFailedException e = assertThrows(ParallelRuns.RunFailedException.class,
                () -> ParallelRuns.run(2, 4, i -> {
                    if (i == 2) {
                        throw new AssertionError("model invariant");
                    }
                    return i;
                }));
        assertEquals(2, e.index());
        assertInstanceOf(AssertionError.class, e.getCause());
    }

    @Test
    void interruptingTheCallerStopsTheBatchAndCleansUp() throws Exception {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch firstStarted = new CountDownLatch(1);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                ParallelRuns.run(2, 1_000, i -> {
                    noteWorker();
                    started.incrementAndGet();
                    firstStarted.countDown();
                    Thread.sleep(20);
                    return i;
                });
                outcome.set(new AssertionError("the batch completed despite the interrupt"));
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        caller.start();
        assertTrue(firstStarted.await(10, TimeUnit.SECONDS));
        caller.interrupt();
        caller.join(10_000);
        assertFalse(caller.isAlive());
        assertInstanceOf(InterruptedException.class, outcome.get());
        assertTrue(started.get() < 1_000, started.get() + " tasks started");
        assertWorkersGone();
    }
}
