package org.pagefabric.bench;

import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;

/** PHOLD on the PageFabric kernel: one component per LP, no object per event. */
public final class KernelPhold {
    private final Simulator sim;
    private final PholdWorkload work;
    private final Lp[] lps;
    private long remaining;

    /** Sets up {@code inFlight} events over {@link PholdWorkload#lpsFor} LPs. */
    public KernelPhold(int inFlight, long seed) {
        sim = new Simulator(seed, inFlight + 16);
        work = new PholdWorkload(PholdWorkload.lpsFor(inFlight), seed);
        lps = new Lp[work.lps()];
        for (int i = 0; i < lps.length; i++) {
            lps[i] = new Lp(i);
        }
        for (int e = 0; e < inFlight; e++) {
            long d = work.next(e % lps.length);
            sim.schedule(PholdWorkload.delay(d), Band.HARDWARE, lps[PholdWorkload.dest(d)], 0, 0);
        }
    }

    /** Runs exactly {@code events} events. */
    public void run(long events) {
        if (events <= 0) {
            return;
        }
        remaining = events;
        sim.run();
    }

    /** The simulator, for summaries and tests. */
    public Simulator simulator() {
        return sim;
    }

    private final class Lp extends Component {
        private final int id;

        Lp(int id) {
            super(KernelPhold.this.sim, "lp" + id);
            this.id = id;
        }

        @Override
        public void handle(int type, long arg) {
            long d = work.next(id);
            sim.schedule(PholdWorkload.delay(d), Band.HARDWARE, lps[PholdWorkload.dest(d)], 0, arg + 1);
            if (--remaining == 0) {
                sim.stop();
            }
        }
    }
}
