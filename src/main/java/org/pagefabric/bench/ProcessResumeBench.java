package org.pagefabric.bench;

import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessImpl;
import org.pagefabric.sim.process.SimProcess;

/**
 * {@code pagefabric bench process}: wall-clock cost of one suspend and resume of a
 * {@link SimProcess}, including the kernel event(s) that trigger it.
 *
 * <p>{@code processes} live processes loop forever; in {@link Mode#SLEEP} each does
 * {@code ctx.sleep(1)} (one resume event per round trip), in {@link Mode#AWAIT} each re-arms its
 * own {@link Completion}, posts a request to a device model that completes it one picosecond
 * later, and awaits it (a hardware event plus a resume event per round trip). The reported
 * figure is wall time divided by the number of resumes counted by the bodies themselves.
 */
public final class ProcessResumeBench {
    /** One measurement: {@code nsPerResume} wall nanoseconds per suspend+resume round trip. */
    public record Result(String impl, long resumes, double nsPerResume) {
    }

    /** What each process waits on. */
    public enum Mode {
        /** {@code ctx.sleep(1)}. */
        SLEEP,
        /** {@code ctx.await(completion)} completed by a device event. */
        AWAIT
    }

    private final int processes;
    private final Mode mode;

    /** One process sleeping one picosecond at a time. */
    public ProcessResumeBench() {
        this(1, Mode.SLEEP);
    }

    /**
     * @param processes live processes, all suspending and resuming in turn
     * @param mode      what they wait on
     */
    public ProcessResumeBench(int processes, Mode mode) {
        if (processes <= 0 || mode == null) {
            throw new IllegalArgumentException("processes must be positive and mode given");
        }
        this.processes = processes;
        this.mode = mode;
    }

    /**
     * Measures about {@code resumes} round trips (rounded up to a multiple of the process count),
     * after an untimed warm-up of a quarter as many.
     *
     * @param impl {@code continuation} or {@code thread}
     */
    public Result run(String impl, long resumes) {
        if (resumes <= 0) {
            throw new IllegalArgumentException("resumes must be positive");
        }
        Setup s = new Setup(ProcessImpl.parse(impl), processes, mode);
        try {
            long steps = Math.ceilDiv(resumes, processes);
            s.advance(Math.max(1, steps / 4));
            long before = s.resumes[0];
            long t0 = System.nanoTime();
            s.advance(steps);
            long dt = System.nanoTime() - t0;
            long done = s.resumes[0] - before;
            return new Result(s.impl.id(), done, dt / (double) done);
        } finally {
            s.close();
        }
    }

    /**
     * A simulation of looping processes, advanced one picosecond step at a time: each step is
     * one round trip of every process. Shared with the JMH benchmark.
     */
    public static final class Setup implements AutoCloseable {
        final ProcessImpl impl;
        private final Simulator sim;
        /** Round trips completed by all bodies; an array so the lambdas can count. */
        final long[] resumes = new long[1];

        /** Builds and starts {@code processes} looping processes. */
        public Setup(ProcessImpl impl, int processes, Mode mode) {
            this.impl = impl;
            this.sim = new Simulator(1, 2 * processes + 16);
            Device device = new Device(sim, processes);
            long[] count = resumes;
            for (int i = 0; i < processes; i++) {
                int me = i;
                Completion done = device.completions[i];
                SimProcess p = switch (mode) {
                    case SLEEP -> new SimProcess(sim, null, "p" + i, impl, ctx -> {
                        while (true) {
                            ctx.sleep(1);
                            count[0]++;
                        }
                    });
                    case AWAIT -> new SimProcess(sim, null, "p" + i, impl, ctx -> {
                        while (true) {
                            done.reset();
                            device.request(me);
                            ctx.await(done);
                            count[0]++;
                        }
                    });
                };
                p.start();
            }
            sim.runUntil(0); // run the starts: every body is now suspended in its loop
        }

        /** Runs {@code steps} picoseconds: {@code steps} round trips of every process. */
        public void advance(long steps) {
            sim.runUntil(sim.now() + steps);
        }

        /** Round trips so far. */
        public long resumes() {
            return resumes[0];
        }

        /** Tears the processes down (joins their threads for the thread implementation). */
        @Override
        public void close() {
            SimProcess.closeAll(sim);
        }
    }

    /** A device that completes a process's completion one picosecond after its request. */
    private static final class Device extends Component {
        final Completion[] completions;

        Device(Simulator sim, int processes) {
            super(sim, "device");
            completions = new Completion[processes];
            for (int i = 0; i < processes; i++) {
                completions[i] = new Completion("p" + i + ".cq");
            }
        }

        void request(int process) {
            schedule(1, 0, process);
        }

        @Override
        public void handle(int type, long arg) {
            completions[(int) arg].complete();
        }
    }
}
