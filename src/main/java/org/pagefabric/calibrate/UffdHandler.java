package org.pagefabric.calibrate;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;

/**
 * The user-space side of a userfaultfd: a thread that polls the descriptor, reads each
 * {@code uffd_msg}, resolves missing-page faults with UFFDIO_ZEROPAGE or UFFDIO_COPY, and stamps
 * the arrival of REMOVE and UNMAP events.
 *
 * <p>It allocates nothing on the Java heap once started: every structure it passes to the kernel
 * is a native segment allocated here, its counters are primitives, its errors are errno numbers
 * read from the ioctl structures, and its downcalls capture no errno (a capturing downcall
 * allocates until the JIT compiles it away). A Java thread stopped on a userfaultfd fault cannot reach a safepoint, so a handler
 * that allocated (and so might need a garbage collection) while a fault is pending could wait
 * for the very thread that waits for it. The probe also raises its faults from native code,
 * where the faulting thread does not hold a safepoint back.
 *
 * <p>Before it reports ready, the handler runs each of its paths a few hundred times on memory
 * that is not registered (the ioctls fail harmlessly): the first execution of a downcall or
 * memory-access site links it, and after 127 calls a method handle's invoker is customized;
 * both allocate, so both must happen before any fault can be pending.
 *
 * <p>If resolving a fault fails, the handler unregisters that page and wakes the faulting
 * thread, which then takes an ordinary fault, and records the errno; it never leaves a thread
 * stuck on a fault.
 */
final class UffdHandler implements Runnable {
    static final int ZEROPAGE = 0;
    static final int COPY = 1;
    private static final int POLL_MILLIS = 20;
    /**
     * Runs of each path before serving: past the 127 invocations after which a method handle's
     * invoker is customized (bytecode generated, on the invoking thread).
     */
    private static final int PRIME_ROUNDS = 3000;

    private final int fd;
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
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile long allocatedWhileServing = -1;

    /** Allocates everything the handler will use from {@code arena} (a shared arena: another thread runs it). */
    UffdHandler(int fd, Arena arena, int eventCapacity) {
        this.fd = fd;
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

    /** Waits until the handler has run its paths once and polls the descriptor. */
    void awaitReady() throws InterruptedException {
        ready.await();
    }

    /**
     * Bytes this thread allocated on the Java heap between becoming ready and stopping, or -1
     * if the JVM cannot tell. The thread measures itself: another thread's reading misses the
     * allocation buffer it is filling.
     */
    long allocatedWhileServing() {
        return allocatedWhileServing;
    }

    @Override
    public void run() {
        prime();
        com.sun.management.ThreadMXBean mx = allocationCounter();
        long before = mx == null ? -1 : mx.getCurrentThreadAllocatedBytes();
        ready.countDown();
        while (!stop) {
            step();
        }
        if (mx != null) {
            allocatedWhileServing = mx.getCurrentThreadAllocatedBytes() - before;
        }
    }

    private static com.sun.management.ThreadMXBean allocationCounter() {
        if (java.lang.management.ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx
                && mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled()) {
            mx.getCurrentThreadAllocatedBytes();
            return mx;
        }
        return null;
    }

    /**
     * Runs every path, {@link #PRIME_ROUNDS} times, with nothing pending: a poll and a read that find no message, the
     * message fields, both resolutions and the failure path on the handler's own unregistered
     * source page (the ioctls fail), and the event record; then forgets what that counted.
     */
    private void prime() {
        long ignored = 0;
        for (int i = 0; i < PRIME_ROUNDS; i++) {
            Libc.pollNoErrno(pollfd.address(), 1, 0);
            Libc.readNoErrno(fd, msg.address(), Uffd.MSG.byteSize());
            ignored += System.nanoTime() + (msg.get(JAVA_BYTE, Uffd.MSG_EVENT) & 0xff)
                    + msg.get(JAVA_LONG, Uffd.MSG_FAULT_ADDRESS);
            for (int m = ZEROPAGE; m <= COPY; m++) {
                mode = m;
                resolve(source.address());
            }
        }
        record(ignored, 0);
        mode = ZEROPAGE;
        failure = 0;
        faults = 0;
        events = 0;
    }

    /** One poll and at most one message. */
    private void step() {
        pollfd.set(JAVA_SHORT, 6, (short) 0);
        if (Libc.pollNoErrno(pollfd.address(), 1, POLL_MILLIS) <= 0) {
            return;
        }
        if (Libc.readNoErrno(fd, msg.address(), Uffd.MSG.byteSize()) != Uffd.MSG.byteSize()) {
            return;
        }
        long stamp = System.nanoTime();
        int event = msg.get(JAVA_BYTE, Uffd.MSG_EVENT) & 0xff;
        if (event == Uffd.EVENT_PAGEFAULT) {
            resolve(msg.get(JAVA_LONG, Uffd.MSG_FAULT_ADDRESS) & -Libc.PAGE);
        } else if (event == Uffd.EVENT_REMOVE || event == Uffd.EVENT_UNMAP) {
            record(stamp, event);
        }
    }

    private void record(long stamp, int event) {
        long n = events;
        int slot = (int) (n % eventStamps.length);
        eventStamps[slot] = stamp;
        eventKinds[slot] = event;
        events = n + 1;
    }

    private void resolve(long page) {
        int rc;
        long result;
        if (mode == COPY) {
            copy.set(JAVA_LONG, 0, page);
            copy.set(JAVA_LONG, 8, source.address());
            copy.set(JAVA_LONG, 16, Libc.PAGE);
            copy.set(JAVA_LONG, 24, 0L);
            copy.set(JAVA_LONG, 32, 0L);
            rc = Libc.ioctlNoErrno(fd, Uffd.IOC_COPY, copy.address());
            result = copy.get(JAVA_LONG, 32);
        } else {
            zeropage.set(JAVA_LONG, 0, page);
            zeropage.set(JAVA_LONG, 8, Libc.PAGE);
            zeropage.set(JAVA_LONG, 16, 0L);
            zeropage.set(JAVA_LONG, 24, 0L);
            rc = Libc.ioctlNoErrno(fd, Uffd.IOC_ZEROPAGE, zeropage.address());
            result = zeropage.get(JAVA_LONG, 24);
        }
        if (rc != 0) {
            // The kernel writes the negated errno into the structure's last field.
            int e = result < 0 ? (int) -result : Libc.EINVAL;
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
            Libc.ioctlNoErrno(fd, Uffd.IOC_UNREGISTER, range.address());
            Libc.ioctlNoErrno(fd, Uffd.IOC_WAKE, range.address());
            return;
        }
        faults = faults + 1;
    }
}
