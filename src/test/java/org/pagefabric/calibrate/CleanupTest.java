package org.pagefabric.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An interrupted calibration (the JVM shutdown hook of Ctrl-C) stops the probes, which release
 * their memory themselves, and the hook releases anything left: nothing stays mapped or locked.
 */
class CleanupTest {
    @BeforeEach
    void linuxOnly() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"));
    }

    /** A probe that maps and locks memory and then runs until it is told to stop. */
    private static final class HoldingProbe implements Probe {
        final CountDownLatch holding = new CountDownLatch(1);

        @Override
        public String name() {
            return "hold";
        }

        @Override
        public String measures() {
            return "nothing";
        }

        @Override
        public void run(ProbeContext ctx) {
            long len = 16 * Libc.PAGE;
            long addr = ctx.mappings().map(len);
            ctx.mappings().map(len);
            if (ctx.libc().mlock(addr, len) != 0) {
                throw new ProbeSkipped("mlock failed: " + Errno.name(ctx.libc().errno()));
            }
            Libc.memset(addr, 7, len);
            holding.countDown();
            while (true) {
                ctx.mappings().checkRunning();
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void theShutdownHookStopsTheProbesAndReleasesEverything() throws Exception {
        LiveMappings mappings = new LiveMappings();
        long before = ProbesTest.vmLockedKiB();
        HoldingProbe probe = new HoldingProbe();
        Throwable[] thrown = new Throwable[1];
        Thread calibration = new Thread(() -> {
            try {
                Calibration.run(new Calibration.Options(1, 0, true), List.of(probe), mappings, HostInfo.detect());
            } catch (Throwable t) {
                thrown[0] = t;
            }
        });
        calibration.start();
        assertTrue(probe.holding.await(10, TimeUnit.SECONDS), "the probe took its memory");
        assertEquals(2, mappings.live());
        assertTrue(ProbesTest.vmLockedKiB() >= before + 64, "16 pages locked");
        mappings.shutdown();
        calibration.join(10_000);
        assertTrue(thrown[0] instanceof CalibrationInterrupted, "the run ends interrupted: " + thrown[0]);
        assertEquals(0, mappings.live());
        assertEquals(before, ProbesTest.vmLockedKiB());
        assertThrows(CalibrationInterrupted.class, mappings::open, "no new session once shutting down");
    }

    @Test
    void descriptorsAndMappingsLeftByAProbeAreReleasedWhenTheSessionEnds() throws Exception {
        LiveMappings mappings = new LiveMappings();
        long before = ProbesTest.vmLockedKiB();
        try (Arena arena = Arena.ofConfined()) {
            Libc libc = new Libc(arena);
            try (LiveMappings.Session s = mappings.open()) {
                long addr = mappings.map(8 * Libc.PAGE);
                assertEquals(0, libc.mlock(addr, 8 * Libc.PAGE));
                mappings.adoptFd(libc.open(arena.allocateFrom("/dev/null"), Libc.O_RDWR | Libc.O_CLOEXEC));
                assertEquals(2, mappings.live());
            }
        }
        assertEquals(0, mappings.live());
        assertEquals(before, ProbesTest.vmLockedKiB());
    }
}
