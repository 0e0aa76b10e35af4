package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the points of several experiments on one set of worker threads, so that a sweep of many
 * experiments keeps every core busy until its last point, not only within each experiment. The
 * points wait in one queue, largest estimated CPU seconds first ({@link CostModel}, one unit for
 * every experiment; ties by experiment, then run index): the long points start early and the
 * short ones fill in around them. A point
 * starts only if its estimated heap footprint ({@link Footprint}) fits beside those of the points
 * running, within a budget taken from the maximum heap; a point larger than the whole budget runs
 * alone. So more threads never means more heap than the JVM has.
 *
 * <p>Each experiment's result is handed over on the thread that called {@link #run} as soon as
 * its last point is done, while the others still run. Rows are stored by run index, so they do
 * not depend on the thread count or the order points finish in. Points already in the runners'
 * caches are read before any point runs and take no worker. A stop ({@link #cancel()}, Ctrl-C
 * through {@link #runHandlingInterrupt}) starts no new point, lets the points in flight finish,
 * and hands every experiment not yet handed over its finished rows, in experiment order.
 */
public final class PointPool {
    /** Share of the maximum heap the running points' estimates may fill; the rest is the JVM's own and slack. */
    static final double HEAP_SHARE = 0.75;

    /** What to do with an experiment's result: write it, print it. */
    @FunctionalInterface
    public interface Finished {
        /**
         * @param experiment the experiment's position in the runners given
         * @param result     its rows in run order; {@code complete} is false after a stop
         * @param ran        the points the rows belong to, in the same order
         */
        void accept(int experiment, ExperimentResult result, List<ExperimentPoint> ran);
    }

    /** A point's estimated cost and heap footprint; a seam so tests can give fake points fake sizes. */
    interface Estimates {
        /** Estimated CPU seconds: larger starts first. */
        double cost(ExperimentSpec spec, ExperimentPoint p);

        /** Heap the point holds while it runs, in bytes. */
        long footprint(ExperimentSpec spec, ExperimentPoint p);
    }

    private static final Estimates MODEL = new Estimates() {
        @Override
        public double cost(ExperimentSpec spec, ExperimentPoint p) {
            return CostModel.bundled().cpuSeconds(spec.workload(), p);
        }

        @Override
        public long footprint(ExperimentSpec spec, ExperimentPoint p) {
            return Footprint.estimate(spec.workload(), p);
        }
    };

    private record Task(int experiment, int position, ExperimentPoint point, double cost, long footprint) {
    }

    /** The order points wait in. */
    public enum Order {
        /**
         * Largest estimated cost first: the sweep ends soonest, since its long points start early and
         * the short ones fill in around them.
         */
        LARGEST_FIRST,
        /**
         * Run order, as the points are numbered: a run stopped early has finished a prefix of them,
         * as a user watching a sweep over sizes expects.
         */
        RUN_ORDER
    }

    private final List<ExperimentRunner> runners;
    private final int threads;
    private final Order order;
    private final String label;
    private final long budget;
    private final Estimates estimates;
    private final Object lock = new Object();
    // guarded by lock
    private final List<Task> pending = new ArrayList<>();
    private long admitted;
    private int running;
    private long peakAdmitted;
    private Task failedTask;
    private Throwable failure;
    private double doneCost;
    private ProgressLog log;

    private final AtomicInteger done = new AtomicInteger();
    private final BlockingQueue<Integer> settled = new LinkedBlockingQueue<>();
    /** What a worker puts into {@link #settled} as it ends, so that the hand-over sees the last one go at once. */
    private static final int WORKER_ENDED = -1;
    private final AtomicInteger ended = new AtomicInteger();
    private volatile boolean cancelled;

    /**
     * A pool over {@code runners} (each restricted to a shard's share or not) with a heap budget
     * of {@link #HEAP_SHARE} of the maximum heap.
     *
     * @param threads worker threads, at least 1
     */
    public PointPool(List<ExperimentRunner> runners, int threads) {
        this(runners, threads, Order.LARGEST_FIRST, "points");
    }

    /**
     * A pool over {@code runners} whose points wait in {@code order}, its progress bar labelled
     * {@code label}, with a heap budget of {@link #HEAP_SHARE} of the maximum heap.
     *
     * @param threads worker threads, at least 1
     */
    public PointPool(List<ExperimentRunner> runners, int threads, Order order, String label) {
        this(runners, threads, (long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE), MODEL, order, label);
    }

    /** A pool with its own budget and estimates (tests). */
    PointPool(List<ExperimentRunner> runners, int threads, long budget, Estimates estimates) {
        this(runners, threads, budget, estimates, Order.LARGEST_FIRST, "points");
    }

    /** A pool with its own budget, estimates and order (tests). */
    PointPool(List<ExperimentRunner> runners, int threads, long budget, Estimates estimates, Order order,
            String label) {
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, not " + threads);
        }
        this.runners = List.copyOf(runners);
        this.threads = threads;
        this.order = java.util.Objects.requireNonNull(order, "order");
        this.label = label;
        this.budget = budget;
        this.estimates = estimates;
    }

    /**
     * Prints progress lines to {@code log} as the run goes (for standard error that is not a
     * terminal), beside or instead of the bar {@link #run}'s {@code progress} allows.
     *
     * @return this pool
     */
    public PointPool logProgress(ProgressLog log) {
        this.log = log;
        return this;
    }

    /** The heap the running points' estimates may fill, in bytes. */
    public long budget() {
        return budget;
    }

    /** The largest sum of estimates that ran at once (only a point larger than the budget, alone, exceeds it). */
    long peakAdmitted() {
        synchronized (lock) {
            return peakAdmitted;
        }
    }

    /** How many points have finished so far, those read from a cache included. */
    public int finished() {
        return done.get();
    }

    /** Stops cleanly: no new point starts; points in flight finish and are kept. Safe from any thread. */
    public void cancel() {
        cancelled = true;
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /**
     * Runs like {@link #run}, turning Ctrl-C (or SIGTERM) into {@link #cancel()}: the finished
     * rows are handed over in a JVM that is not shutting down.
     */
    public void runHandlingInterrupt(boolean progress, Finished finished) {
        StopSignals.handling(this::cancel, () -> {
            run(progress, finished);
            return null;
        }, ignored -> { });
    }

    /**
     * Runs every runner's points to run (or until {@link #cancel()}), handing each experiment's
     * result to {@code finished} on this thread: as soon as it is complete, or at the end, with
     * the rows it has, if the pool was stopped.
     *
     * @param progress show a progress bar on a console once the run takes long enough
     * @throws ExperimentRunner.PointFailedException if a point threw; no new point starts after a
     *                                                failure, and the experiments completed before
     *                                                it have been handed over
     */
    public void run(boolean progress, Finished finished) {
        int n = runners.size();
        @SuppressWarnings("unchecked")
        Map<String, Object>[][] rows = new Map[n][];
        int[] remaining = new int[n];
        int total = 0;
        for (int k = 0; k < n; k++) {
            ExperimentRunner r = runners.get(k);
            List<ExperimentPoint> toRun = r.toRun();
            rows[k] = new Map[toRun.size()];
            for (int i = 0; i < toRun.size(); i++) {
                ExperimentPoint p = toRun.get(i);
                Map<String, Object> row = r.cached(p);
                if (row != null) {
                    rows[k][i] = row;
                } else {
                    pending.add(new Task(k, i, p, estimates.cost(r.spec(), p), estimates.footprint(r.spec(), p)));
                    remaining[k]++;
                }
            }
            total += toRun.size();
            done.addAndGet(toRun.size() - remaining[k]);
            if (remaining[k] == 0) {
                settled.add(k);
            }
        }
        Comparator<Task> byRunOrder = Comparator.comparingInt(Task::experiment).thenComparingInt(t -> t.point().index());
        pending.sort(order == Order.RUN_ORDER ? byRunOrder
                : Comparator.comparingDouble((Task t) -> -t.cost()).thenComparing(byRunOrder));
        Runnable points = () -> {
            Task t;
            while ((t = take()) != null) {
                Map<String, Object> row = null;
                Throwable thrown = null;
                try {
                    row = runners.get(t.experiment()).compute(t.point());
                } catch (Throwable e) {
                    thrown = e;
                }
                synchronized (lock) {
                    // counted before the experiment can settle, so that its line counts its last point
                    done.incrementAndGet();
                    admitted -= t.footprint();
                    running--;
                    if (thrown != null) {
                        if (failedTask == null || t.experiment() < failedTask.experiment()
                                || (t.experiment() == failedTask.experiment() && t.position() < failedTask.position())) {
                            failedTask = t;
                            failure = thrown;
                        }
                    } else {
                        doneCost += t.cost();
                        rows[t.experiment()][t.position()] = row;
                        if (--remaining[t.experiment()] == 0) {
                            settled.add(t.experiment());
                        }
                    }
                    lock.notifyAll();
                }
            }
        };
        Runnable work = () -> {
            try {
                points.run();
            } finally {
                ended.incrementAndGet();
                settled.add(WORKER_ENDED);
            }
        };
        if (log != null) {
            log.start(total, pending.stream().mapToDouble(Task::cost).sum());
        }
        int workers = Math.max(1, Math.min(threads, pending.size()));
        Thread[] pool = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            pool[w] = new Thread(work, "pagefabric-point-" + w);
            pool[w].start();
        }
        boolean[] handed = new boolean[n];
        handOver(pool, total, progress, k -> {
            handed[k] = true;
            finished.accept(k, runners.get(k).result(rows[k]), ran(runners.get(k), rows[k]));
            if (log != null) {
                log.experimentDone(runners.get(k).spec().id(), done.get(), doneCost());
            }
        });
        synchronized (lock) {
            if (failedTask != null) {
                throw new ExperimentRunner.PointFailedException(failedTask.point(), failure);
            }
        }
        for (int k = 0; k < n; k++) {
            if (!handed[k]) {
                finished.accept(k, runners.get(k).result(rows[k]), ran(runners.get(k), rows[k]));
            }
        }
    }

    /** The next point that fits the budget, largest first; {@code null} when there is none left or the run stops. */
    private Task take() {
        synchronized (lock) {
            while (true) {
                if (cancelled || failedTask != null || pending.isEmpty()) {
                    return null;
                }
                for (int i = 0; i < pending.size(); i++) {
                    Task t = pending.get(i);
                    // a point larger than the whole budget runs alone rather than never
                    if (running == 0 || admitted + t.footprint() <= budget) {
                        pending.remove(i);
                        admitted += t.footprint();
                        running++;
                        peakAdmitted = Math.max(peakAdmitted, admitted);
                        return t;
                    }
                }
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    // an interrupt of a worker is a request to stop, like Ctrl-C
                    cancelled = true;
                }
            }
        }
    }

    private double doneCost() {
        synchronized (lock) {
            return doneCost;
        }
    }

    private static List<ExperimentPoint> ran(ExperimentRunner r, Map<String, Object>[] rows) {
        List<ExperimentPoint> out = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] != null) {
                out.add(r.toRun().get(i));
            }
        }
        return out;
    }

    /**
     * Hands each settled experiment over on this thread until the workers are done, showing a
     * progress bar once the run has taken long enough.
     */
    private void handOver(Thread[] workers, int total, boolean progress, java.util.function.IntConsumer hand) {
        boolean interrupted = false;
        DelayedProgress bar = new DelayedProgress(label, total, progress);
        try {
            while (true) {
                Integer k;
                try {
                    k = settled.poll(200, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    cancel();
                    interrupted = true;
                    k = null;
                }
                if (k != null && k != WORKER_ENDED) {
                    handOrStop(hand, k);
                    continue;
                }
                // without waiting out a poll once the last worker has ended: a tiny run takes milliseconds
                if (ended.get() == workers.length || !alive(workers)) {
                    for (Integer rest; (rest = settled.poll()) != null; ) {
                        if (rest != WORKER_ENDED) {
                            handOrStop(hand, rest);
                        }
                    }
                    return;
                }
                bar.update(done.get());
                if (log != null) {
                    log.tick(done.get(), doneCost());
                }
            }
        } finally {
            bar.finish(done.get());
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Hands {@code k} over; if that fails (an output cannot be written), no new point starts. */
    private void handOrStop(java.util.function.IntConsumer hand, int k) {
        try {
            hand.accept(k);
        } catch (RuntimeException | Error e) {
            cancel();
            throw e;
        }
    }

    private static boolean alive(Thread[] workers) {
        for (Thread t : workers) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
