package org.pagefabric.calibrate;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The user-space side of a userfaultfd: a thread that polls the descriptor, reads each
 * {@code uffd_msg}, resolves missing-page faults with UFFDIO_ZEROPAGE or UFFDIO_COPY, and stamps
 * the arrival of REMOVE and UNMAP events.
 *
 * <p>It allocates nothing on the Java heap once started: every structure it passes to the kernel
 * is a native segment allocated here, its counters are primitives, and its errors are errno
 * numbers. A Java thread stopped on a userfaultfd fault cannot reach a safepoint, so a handler
 * that allocated (and so might need a garbage collection) while a fault is pending could wait
 * for the very thread that waits for it. The probe also raises its faults from native code,
 * where the faulting thread does not hold a safepoint back.
 *
 * <p>If resolving a fault fails, the handler unregisters that page and wakes the faulting
 * thread, which then takes an ordinary fault, and records the errno; it never leaves a thread
 * stuck on a fault.
 */
final class UffdHandler implements Runnable {
    static final int ZEROPAGE = 0;
    static final int COPY = 1;
    private static final int POLL_MILLIS = 20;

    private final int fd;
    private final Libc libc;
    private final MemorySegment pollfd;
    private final MemorySegment msg;
    private final MemorySegment zeropage;
    private final MemorySegment copy;
    private final MemorySegment range;
    private final MemorySegment source;
    private final long[] eventStamps;
    private final int[] eventKinds;

    private volatile int mode = ZEROPAGE;
    private volatile boolean stop;
    private volatile long faults;
    private volatile long events;
    private volatile int failure;

    /** Allocates everything the handler will use from {@code arena} (a shared arena: another thread runs it). */
    UffdHandler(int fd, Arena arena, int eventCapacity) {
        this.fd = fd;
        this.libc = new Libc(arena);
        this.pollfd = arena.allocate(Uffd.POLLFD);
        this.msg = arena.allocate(Uffd.MSG);
        this.zeropage = arena.allocate(Uffd.ZEROPAGE);
        this.copy = arena.allocate(Uffd.COPY);
        this.range = arena.allocate(Uffd.RANGE);
        this.source = arena.allocate(Libc.PAGE, Libc.PAGE);
        for (long i = 0; i < Libc.PAGE; i += 8) {
            // A pattern without 0xFF bytes: the faulting reader scans for 0xFF.
            source.set(JAVA_LONG, i, 0x0102030405060708L + i);
        }
        this.eventStamps = new long[eventCapacity];
        this.eventKinds = new int[eventCapacity];
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, 4, Libc.POLLIN);
    }

    /** How the next missing-page faults are resolved: {@link #ZEROPAGE} or {@link #COPY}. */
    void mode(int m) {
        mode = m;
    }

    /** Faults resolved so far. */
    long faults() {
        return faults;
    }

    /** REMOVE and UNMAP events read so far. */
    long events() {
        return events;
    }

    /** {@link System#nanoTime()} when event number {@code i} (from 0) was read. */
    long eventStamp(long i) {
        return eventStamps[(int) (i % eventStamps.length)];
    }

    /** The event kind of event number {@code i}. */
    int eventKind(long i) {
        return eventKinds[(int) (i % eventKinds.length)];
    }

    /** The errno of the first failed resolution, 0 if none. */
    int failure() {
        return failure;
    }

    /** Asks the thread to end within one poll interval. */
    void stop() {
        stop = true;
    }

    @Override
    public void run() {
        while (!stop) {
            step();
        }
    }

    /** One poll and at most one message. */
    private void step() {
        pollfd.set(JAVA_SHORT, 6, (short) 0);
        if (libc.poll(pollfd.address(), 1, POLL_MILLIS) <= 0) {
            return;
        }
        if (libc.read(fd, msg.address(), Uffd.MSG.byteSize()) != Uffd.MSG.byteSize()) {
            return;
        }
        long stamp = System.nanoTime();
        int event = msg.get(JAVA_BYTE, Uffd.MSG_EVENT) & 0xff;
        if (event == Uffd.EVENT_PAGEFAULT) {
            resolve(msg.get(JAVA_LONG, Uffd.MSG_FAULT_ADDRESS) & -Libc.PAGE);
        } else if (event == Uffd.EVENT_REMOVE || event == Uffd.EVENT_UNMAP) {
            long n = events;
            int slot = (int) (n % eventStamps.length);
            eventStamps[slot] = stamp;
            eventKinds[slot] = event;
            events = n + 1;
        }
    }

    private void resolve(long page) {
        int rc;
        if (mode == COPY) {
            copy.set(JAVA_LONG, 0, page);
            copy.set(JAVA_LONG, 8, source.address());
            copy.set(JAVA_LONG, 16, Libc.PAGE);
            copy.set(JAVA_LONG, 24, 0L);
            copy.set(JAVA_LONG, 32, 0L);
            rc = libc.ioctl(fd, Uffd.IOC_COPY, copy.address());
        } else {
            zeropage.set(JAVA_LONG, 0, page);
            zeropage.set(JAVA_LONG, 8, Libc.PAGE);
            zeropage.set(JAVA_LONG, 16, 0L);
            zeropage.set(JAVA_LONG, 24, 0L);
            rc = libc.ioctl(fd, Uffd.IOC_ZEROPAGE, zeropage.address());
        }
        if (rc != 0) {
            int e = libc.errno();
            if (e == Libc.EEXIST) {
                // Another path mapped the page already; the faulting thread retries and finds it.
                faults = faults + 1;
                return;
            }
            if (failure == 0) {
                failure = e;
            }
            range.set(JAVA_LONG, 0, page);
            range.set(JAVA_LONG, 8, Libc.PAGE);
            libc.ioctl(fd, Uffd.IOC_UNREGISTER, range.address());
            libc.ioctl(fd, Uffd.IOC_WAKE, range.address());
            return;
        }
        faults = faults + 1;
    }
}
