package org.pagefabric.calibrate;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every mapping and file descriptor the probes hold, so that nothing stays mapped, locked or open
 * after a run: each probe releases what it took in a {@code finally}, and a JVM shutdown hook
 * (Ctrl-C) first asks the running probes to stop, waits for them to release their memory
 * themselves (a probe may be touching it), and then releases whatever is left.
 *
 * <p>Releasing a mapping is munlock then munmap: munmap alone would drop the lock too, but the
 * explicit munlock keeps the release correct if a mapping is ever shared.
 */
public final class LiveMappings {
    /** The process-wide registry the probes use. */
    public static final LiveMappings GLOBAL = new LiveMappings();

    private static final long STOP_WAIT_MILLIS = 5_000;

    private final Libc libc = new Libc(Arena.global());
    private final Map<Long, Long> mappings = new LinkedHashMap<>();
    private final List<Integer> fds = new ArrayList<>();
    private volatile boolean stopping;
    private int sessions;
    private boolean hookInstalled;

    LiveMappings() {
    }

    /**
     * Opens a session: probes run inside one. The first session installs the shutdown hook.
     * Closing the session releases anything its probes left.
     */
    synchronized Session open() {
        if (stopping) {
            throw new CalibrationInterrupted();
        }
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "pagefabric-calibrate-cleanup"));
            hookInstalled = true;
        }
        sessions++;
        return new Session();
    }

    /** A running calibration; closing it releases everything still registered. */
    final class Session implements AutoCloseable {
        private boolean closed;

        @Override
        public void close() {
            synchronized (LiveMappings.this) {
                if (closed) {
                    return;
                }
                closed = true;
                releaseAll();
                sessions--;
                LiveMappings.this.notifyAll();
            }
        }
    }

    /** Throws {@link CalibrationInterrupted} once the JVM is shutting down; probes call it between steps. */
    void checkRunning() {
        if (stopping) {
            throw new CalibrationInterrupted();
        }
    }

    /**
     * Maps {@code length} bytes of anonymous private memory and registers it.
     *
     * @throws ProbeSkipped if the kernel refuses the mapping
     */
    synchronized long map(long length) {
        checkRunning();
        long addr = libc.mmapAnonymous(length);
        if (addr == Libc.MAP_FAILED) {
            throw new ProbeSkipped("mmap of " + length + " B failed: " + Errno.name(libc.errno()));
        }
        mappings.put(addr, length);
        return addr;
    }

    /**
     * Unmaps a registered mapping (unlocking it first if asked).
     *
     * @return {@link System#nanoTime()} just before the munmap call, for probes that time what
     *         munmap triggers
     */
    synchronized long unmap(long addr, boolean unlock) {
        Long length = mappings.remove(addr);
        if (length == null) {
            throw new IllegalStateException("not a live mapping: 0x" + Long.toHexString(addr));
        }
        if (unlock) {
            libc.munlock(addr, length);
        }
        long before = System.nanoTime();
        if (libc.munmap(addr, length) != 0) {
            throw new IllegalStateException("munmap failed: " + Errno.name(libc.errno()));
        }
        return before;
    }

    /** Registers an open descriptor (a userfaultfd). */
    synchronized void adoptFd(int fd) {
        fds.add(fd);
    }

    /** Closes a registered descriptor. */
    synchronized void close(int fd) {
        if (fds.remove(Integer.valueOf(fd))) {
            libc.close(fd);
        }
    }

    /** Mappings and descriptors still held. */
    public synchronized int live() {
        return mappings.size() + fds.size();
    }

    /** Bytes still mapped by the probes. */
    public synchronized long liveBytes() {
        long sum = 0;
        for (long len : mappings.values()) {
            sum += len;
        }
        return sum;
    }

    private void releaseAll() {
        // Descriptors first: closing a userfaultfd wakes any thread blocked on one of its faults.
        for (int fd : fds) {
            libc.close(fd);
        }
        fds.clear();
        for (Map.Entry<Long, Long> m : mappings.entrySet()) {
            libc.munlock(m.getKey(), m.getValue());
            libc.munmap(m.getKey(), m.getValue());
        }
        mappings.clear();
    }

    /** The shutdown hook: stop the probes, let them clean up, release the rest. */
    void shutdown() {
        stopping = true;
        synchronized (this) {
            boolean running = sessions > 0;
            long deadline = System.currentTimeMillis() + STOP_WAIT_MILLIS;
            while (sessions > 0) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    break;
                }
                try {
                    wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            int left = mappings.size() + fds.size();
            releaseAll();
            if (running) {
                System.err.println("pagefabric calibrate: interrupted; every probe mapping unlocked and unmapped"
                        + (left > 0 ? " (" + left + " released by the shutdown hook)" : ""));
            }
        }
    }
}
