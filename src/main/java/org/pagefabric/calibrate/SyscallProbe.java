package org.pagefabric.calibrate;

/** An empty system call (getppid through syscall(2)): entry and exit, with the downcall's cost. */
final class SyscallProbe implements Probe {
    static final String NAME = "syscall";
    static final String EMPTY = "empty system call (getppid)";
    private static final int CALLS = 2_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String measures() {
        return "entry and exit of an empty system call";
    }

    @Override
    public void run(ProbeContext ctx) {
        Libc libc = ctx.libc();
        long nr = ctx.host().sysGetppid();
        int reps = ctx.repetitions();
        double[] per = new double[reps];
        for (int rep = -ctx.warmup() * 5; rep < reps; rep++) {
            ctx.mappings().checkRunning();
            long t0 = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                if (libc.syscall(nr, 0) < 0) {
                    throw new ProbeSkipped("syscall(getppid) failed: " + Errno.name(libc.errno()));
                }
            }
            long t1 = System.nanoTime();
            if (rep >= 0) {
                per[rep] = (double) (t1 - t0) / CALLS;
            }
        }
        ctx.add(NAME, EMPTY, "ns", per);
    }
}
