package org.pagefabric.calibrate;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * userfaultfd, the user-space analog of a page-fault handler and of an MMU notifier:
 * <ul>
 *   <li>the round trip of a missing-page fault resolved by a handler thread with UFFDIO_ZEROPAGE
 *       and with UFFDIO_COPY (the faulting read, the message, the handler's ioctl, the wake-up);</li>
 *   <li>the delay from madvise(MADV_DONTNEED) and from munmap of a registered range until the
 *       handler has read the UFFD_EVENT_REMOVE or UFFD_EVENT_UNMAP message.</li>
 * </ul>
 * Each resolution is checked: a ZEROPAGE page reads zeros, a COPY page reads the handler's
 * pattern, so a wrong structure layout cannot pass as a fast fault.
 */
final class UserfaultfdProbe implements Probe {
    static final String NAME = "userfaultfd";
    static final String ZEROPAGE = "missing-page fault, UFFDIO_ZEROPAGE round trip";
    static final String COPY = "missing-page fault, UFFDIO_COPY round trip";
    static final String REMOVE = "UFFD_EVENT_REMOVE read after madvise(DONTNEED)";
    static final String UNMAP = "UFFD_EVENT_UNMAP read after munmap";
    private static final long EVENT_WAIT_NANOS = 2_000_000_000L;

    private final int faultsPerRep;
    private long handlerAllocatedBytes = -1;

    UserfaultfdProbe(int faultsPerRep) {
        this.faultsPerRep = faultsPerRep;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String measures() {
        return "userfaultfd fault round trips (ZEROPAGE, COPY) and REMOVE/UNMAP event delays";
    }

    /**
     * Bytes the handler threads allocated on the Java heap from the moment they were ready (their
     * paths linked) until they were stopped, warm-up included, or -1 if the JVM cannot tell.
     */
    long handlerAllocatedBytes() {
        return handlerAllocatedBytes;
    }

    @Override
    public void run(ProbeContext ctx) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment reg = arena.allocate(Uffd.REGISTER);
            long allocated = faults(ctx, arena, reg);
            long more = -1;
            try {
                more = events(ctx, arena, reg);
            } catch (ProbeSkipped e) {
                ctx.skip(NAME, REMOVE + ", " + UNMAP, e.getMessage());
            }
            handlerAllocatedBytes = allocated < 0 ? -1 : allocated + Math.max(0, more);
        }
    }

    private long faults(ProbeContext ctx, Arena arena, MemorySegment reg) {
        Libc libc = ctx.libc();
        StringBuilder how = new StringBuilder();
        int fd = Uffd.open(libc, ctx.host().sysUserfaultfd(), how);
        ctx.mappings().adoptFd(fd);
        try {
            Uffd.handshake(libc, fd, 0, arena);
            ctx.note("userfaultfd: opened with " + how + "; faults raised by a native read, resolved by one "
                    + "handler thread; " + faultsPerRep + " faults per repetition, their median kept");
            UffdHandler h = new UffdHandler(fd, arena, 1);
            Thread t = Thread.ofPlatform().daemon().name("pagefabric-uffd-faults").start(h);
            try {
                awaitReady(h);
                for (int mode : new int[] {UffdHandler.ZEROPAGE, UffdHandler.COPY}) {
                    h.mode(mode);
                    double[] samples = new double[ctx.repetitions()];
                    double[] trial = new double[faultsPerRep];
                    for (int rep = -ctx.warmup(); rep < ctx.repetitions(); rep++) {
                        ctx.mappings().checkRunning();
                        faultOnce(ctx, libc, fd, reg, h, mode, trial, rep == 0);
                        if (rep >= 0) {
                            samples[rep] = PerPageFit.median(trial);
                        }
                    }
                    ctx.add(NAME, mode == UffdHandler.COPY ? COPY : ZEROPAGE, "us", MlockProbe.us(samples));
                }
            } finally {
                stop(h, t);
            }
            return h.allocatedWhileServing();
        } finally {
            ctx.mappings().close(fd);
        }
    }

    /** One mapping registered for missing faults, each page faulted once by a native read and timed. */
    private void faultOnce(ProbeContext ctx, Libc libc, int fd, MemorySegment reg, UffdHandler h, int mode,
            double[] trial, boolean verify) {
        long len = faultsPerRep * Libc.PAGE;
        long addr = ctx.mappings().map(len);
        try {
            Uffd.register(libc, fd, addr, len, reg);
            for (int p = 0; p < faultsPerRep; p++) {
                long page = addr + p * Libc.PAGE;
                long t0 = System.nanoTime();
                Libc.readFromNative(page, 1);
                long t1 = System.nanoTime();
                trial[p] = t1 - t0;
            }
            if (h.failure() != 0) {
                throw new ProbeSkipped((mode == UffdHandler.COPY ? "UFFDIO_COPY" : "UFFDIO_ZEROPAGE")
                        + " failed: " + Errno.name(h.failure()));
            }
            if (verify) {
                long first = MemorySegment.ofAddress(addr).reinterpret(len).get(ValueLayout.JAVA_LONG, 0);
                long expected = mode == UffdHandler.COPY ? 0x0102030405060708L : 0L;
                if (first != expected) {
                    throw new IllegalStateException("userfaultfd resolution put 0x" + Long.toHexString(first)
                            + " in the page, expected 0x" + Long.toHexString(expected));
                }
            }
        } finally {
            ctx.mappings().unmap(addr, false);
        }
    }

    private long events(ProbeContext ctx, Arena arena, MemorySegment reg) {
        Libc libc = ctx.libc();
        int fd = Uffd.open(libc, ctx.host().sysUserfaultfd(), new StringBuilder());
        ctx.mappings().adoptFd(fd);
        try {
            Uffd.handshake(libc, fd, Uffd.FEATURE_EVENT_REMOVE | Uffd.FEATURE_EVENT_UNMAP, arena);
            UffdHandler h = new UffdHandler(fd, arena, 4);
            Thread t = Thread.ofPlatform().daemon().name("pagefabric-uffd-events").start(h);
            try {
                awaitReady(h);
                double[] remove = new double[ctx.repetitions()];
                double[] unmap = new double[ctx.repetitions()];
                for (int rep = -ctx.warmup(); rep < ctx.repetitions(); rep++) {
                    ctx.mappings().checkRunning();
                    long len = 2 * Libc.PAGE;
                    long addr = ctx.mappings().map(len);
                    boolean mapped = true;
                    try {
                        Libc.memset(addr, 1, len);
                        Uffd.register(libc, fd, addr, len, reg);
                        long n = h.events();
                        long t0 = System.nanoTime();
                        if (libc.madvise(addr, Libc.PAGE, Libc.MADV_DONTNEED) != 0) {
                            throw new ProbeSkipped("madvise(MADV_DONTNEED) failed: " + Errno.name(libc.errno()));
                        }
                        long removeDelay = awaitEvent(h, n, Uffd.EVENT_REMOVE, "UFFD_EVENT_REMOVE") - t0;
                        mapped = false;
                        long t1 = ctx.mappings().unmap(addr, false);
                        long unmapDelay = awaitEvent(h, n + 1, Uffd.EVENT_UNMAP, "UFFD_EVENT_UNMAP") - t1;
                        if (rep >= 0) {
                            remove[rep] = removeDelay / 1000.0;
                            unmap[rep] = unmapDelay / 1000.0;
                        }
                    } finally {
                        if (mapped) {
                            ctx.mappings().unmap(addr, false);
                        }
                    }
                }
                ctx.add(NAME, REMOVE, "us", remove);
                ctx.add(NAME, UNMAP, "us", unmap);
            } finally {
                stop(h, t);
            }
            return h.allocatedWhileServing();
        } finally {
            ctx.mappings().close(fd);
        }
    }

    /** Waits until the handler has read event number {@code n}; its read time. */
    private static long awaitEvent(UffdHandler h, long n, int kind, String name) {
        long deadline = System.nanoTime() + EVENT_WAIT_NANOS;
        while (h.events() <= n) {
            if (System.nanoTime() > deadline) {
                throw new ProbeSkipped("no " + name + " message within " + EVENT_WAIT_NANOS / 1_000_000 + " ms");
            }
            Thread.onSpinWait();
        }
        if (h.eventKind(n) != kind) {
            throw new IllegalStateException("expected " + name + ", read event 0x" + Integer.toHexString(h.eventKind(n)));
        }
        return h.eventStamp(n);
    }

    private static void awaitReady(UffdHandler h) {
        try {
            h.awaitReady();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CalibrationInterrupted();
        }
    }

    private static void stop(UffdHandler h, Thread t) {
        h.stop();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
