package org.pagefabric.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs independent simulations side by side on a fixed number of worker threads: the seed of
 * the experiment runner (replications, parameter sweeps).
 *
 * <p>Parallelism stays <em>between</em> runs: each task builds and runs its own
 * {@link Simulator} on one thread, so every run is deterministic, and the returned list is
 * the same whatever the thread count, as long as tasks share no mutable state.
 *
 * <p>Contract:
 * <ul>
 *   <li>results come back in task order ({@code result.get(i)} is task {@code i}'s value,
 *       {@code null} allowed);</li>
 *   <li>tasks are started in index order; when tasks fail, the failure reported is the one of
 *       the <em>lowest</em> failing index, wrapped in a {@link RunFailedException} that names
 *       it. Tasks with a higher index than a known failure are not started, but every task
 *       already started (in particular every lower-indexed one, which may itself fail) is
 *       allowed to finish first. With deterministic tasks the reported failure therefore does
 *       not depend on the thread count or on scheduling;</li>
 *   <li>the worker threads are created for the call and have all terminated when it returns
 *       or throws: nothing is left running behind the caller;</li>
 *   <li>if the calling thread is interrupted while waiting, no further task is started, the
 *       workers are interrupted, the call waits for the tasks in flight to return (simulations
 *       do not poll interrupts, so this is as long as the longest of them), and then throws
 *       {@link InterruptedException}.</li>
 * </ul>
 */
public final class ParallelRuns {
    private ParallelRuns() {
    }

    /**
     * One task of a batch, told its index (the replication number, the point of a sweep).
     *
     * @param <T> the result type
     */
    @FunctionalInterface
    public interface IndexedTask<T> {
        /**
         * Runs task {@code index}.
         *
         * @param index the task's position, 0-based
         * @return the task's result
         * @throws Exception if the run fails
         */
        T run(int index) throws Exception;
    }

    /** A task failed; {@link #index()} says which and {@link #getCause()} what it threw. */
    public static final class RunFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int index;

        /**
         * Creates the exception.
         *
         * @param index the index of the failed task
         * @param count the number of tasks in the batch
         * @param cause what the task threw
         */
        public RunFailedException(int index, int count, Throwable cause) {
            super("run " + index + " of " + count + " failed: " + cause, cause);
            this.index = index;
        }

        /** The index of the failed task. */
        public int index() {
            return index;
        }
    }

    /**
     * Runs {@code tasks} on {@code threads} worker threads.
     *
     * @param threads number of worker threads, at least 1 (fewer are used if there are fewer
     *                tasks)
     * @param tasks   the tasks; none may be {@code null}
     * @param <T>     the result type
     * @return the results, in task order (unmodifiable; {@code null} results kept)
     * @throws RunFailedException   if a task threw; the lowest failing index is reported
     * @throws InterruptedException if the calling thread was interrupted while waiting
     */
    public static <T> List<T> run(int threads, List<? extends Callable<? extends T>> tasks)
            throws InterruptedException {
        List<Callable<? extends T>> copy = new ArrayList<>(tasks.size());
        for (Callable<? extends T> t : tasks) {
            copy.add(Objects.requireNonNull(t, "null task"));
        }
        return run(threads, copy.size(), i -> copy.get(i).call());
    }

    /**
     * Runs {@code task} for every index in {@code [0, count)} on {@code threads} worker threads.
     *
     * @param threads number of worker threads, at least 1 (fewer are used if {@code count} is
     *                smaller)
     * @param count   number of tasks, at least 0
     * @param task    the task, called once per index, possibly from several threads at once
     * @param <T>     the result type
     * @return the results, {@code result.get(i)} being {@code task.run(i)} (unmodifiable)
     * @throws RunFailedException   if a task threw; the lowest failing index is reported
     * @throws InterruptedException if the calling thread was interrupted while waiting
     */
    public static <T> List<T> run(int threads, int count, IndexedTask<? extends T> task)
            throws InterruptedException {
        if (threads < 1) {
            throw new IllegalArgumentException("need at least one worker thread, not " + threads);
        }
        if (count < 0) {
            throw new IllegalArgumentException("negative task count " + count);
        }
        Objects.requireNonNull(task, "null task");
        Batch<T> batch = new Batch<>(count, task);
        int n = Math.min(threads, count);
        Thread[] workers = new Thread[n];
        for (int w = 0; w < n; w++) {
            workers[w] = new Thread(batch::work, "pagefabric-run-" + w);
        }
        int started = 0;
        boolean joined = false;
        try {
            for (Thread t : workers) {
                t.start();
                started++;
            }
            for (Thread t : workers) {
                t.join();
            }
            joined = true;
        } catch (InterruptedException e) {
            batch.abandon();
            for (int w = 0; w < started; w++) {
                workers[w].interrupt();
            }
            throw e;
        } finally {
            if (!joined) {
                // Interrupted, or start() failed (out of threads): never leave workers running
                // behind the caller. Interrupts that come while waiting are kept for later.
                batch.abandon();
                if (joinUninterruptibly(workers, started)) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return batch.results();
    }

    /** Joins the first {@code n} threads, deferring interrupts; returns whether one came. */
    private static boolean joinUninterruptibly(Thread[] threads, int n) {
        boolean interrupted = false;
        for (int w = 0; w < n; w++) {
            while (true) {
                try {
                    threads[w].join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        return interrupted;
    }

    /** Shared state of one call: the next index to hand out, results and the first failure. */
    private static final class Batch<T> {
        private final int count;
        private final IndexedTask<? extends T> task;
        private final Object[] results;
        private final AtomicInteger next = new AtomicInteger();
        /** Lowest failed index so far, or {@code count}: indices at or above it are not started. */
        private final AtomicInteger limit;
        private final Throwable[] failures;
        private volatile boolean abandoned;

        Batch(int count, IndexedTask<? extends T> task) {
            this.count = count;
            this.task = task;
            this.results = new Object[count];
            this.failures = new Throwable[count];
            this.limit = new AtomicInteger(count);
        }

        void work() {
            while (!abandoned) {
                int i = next.getAndIncrement();
                if (i >= limit.get()) {
                    return;
                }
                try {
                    results[i] = task.run(i);
                } catch (Throwable e) {
                    failures[i] = e;
                    limit.accumulateAndGet(i, Math::min);
                }
            }
        }

        void abandon() {
            abandoned = true;
        }

        /** Called after every worker was joined, which publishes their writes. */
        @SuppressWarnings("unchecked")
        List<T> results() {
            int failed = limit.get();
            if (failed < count) {
                throw new RunFailedException(failed, count, failures[failed]);
            }
            return (List<T>) Collections.unmodifiableList(Arrays.asList(results));
        }
    }
}
