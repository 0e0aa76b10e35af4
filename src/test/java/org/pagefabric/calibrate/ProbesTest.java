package org.pagefabric.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every probe on the running Linux host, briefly: plausible values (positive, and ordered as the
 * mechanisms require), skips with reasons, and nothing left mapped, locked or open afterwards.
 */
class ProbesTest {
    private static CalibrationResult result;
    private static UserfaultfdProbe uffd;
    private static LiveMappings mappings;
    private static long lockedBefore;
    private static long lockedAfter;

    @BeforeAll
    static void calibrateOnce() throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"),
                "the probes measure Linux");
        List<Probe> probes = Calibration.probes(true);
        uffd = (UserfaultfdProbe) probes.stream().filter(p -> p instanceof UserfaultfdProbe).findFirst().orElseThrow();
        mappings = new LiveMappings();
        lockedBefore = vmLockedKiB();
        result = Calibration.run(new Calibration.Options(5, 2, true), probes, mappings, HostInfo.detect());
        lockedAfter = vmLockedKiB();
    }

    static long vmLockedKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmLck:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmLck in /proc/self/status");
    }

    private static double median(String probe, String quantity) {
        return result.find(probe, quantity).orElseThrow(() -> new AssertionError(probe + " " + quantity
                + " not measured; skipped: " + result.skipped())).median();
    }

    private static boolean measured(String probe) {
        return result.skipped().stream().noneMatch(s -> s.probe().equals(probe));
    }

    @Test
    void everyMeasuredCostIsPositive() {
        assertFalse(result.measurements().isEmpty());
        for (Measurement m : result.measurements()) {
            assertEquals(5, m.runs(), m.toString());
            assertTrue(m.median() > 0, "median of " + m);
            assertTrue(m.min() <= m.p25() && m.p25() <= m.median() && m.median() <= m.p75() && m.p75() <= m.max(),
                    m.toString());
        }
    }

    @Test
    void theSyscallTouchMadviseAndMincoreProbesRunOnAnyLinux() {
        for (String p : new String[] {SyscallProbe.NAME, TouchProbe.NAME, MadviseProbe.NAME, MincoreProbe.NAME}) {
            assertTrue(measured(p), p + " skipped: " + result.skipped());
        }
    }

    @Test
    void touchingAFreshPageCostsAFaultAndAPresentPageDoesNot() {
        double first = median(TouchProbe.NAME, TouchProbe.FIRST);
        double again = median(TouchProbe.NAME, TouchProbe.RETOUCH);
        assertTrue(first > 2 * again, "first touch " + first + " ns vs re-touch " + again + " ns");
    }

    @Test
    void mlockOfFreshMemoryCostsMoreThanReTouchingAndMoreThanMlockOfResidentMemory() {
        Assumptions.assumeTrue(measured(MlockProbe.NAME), () -> "mlock skipped: " + result.skipped());
        double fresh = median(MlockProbe.NAME, MlockProbe.FRESH_PER_PAGE);
        double resident = median(MlockProbe.NAME, MlockProbe.RESIDENT_PER_PAGE);
        double retouch = median(TouchProbe.NAME, TouchProbe.RETOUCH);
        assertTrue(fresh > retouch, "mlock fresh " + fresh + " ns/page vs re-touch " + retouch);
        assertTrue(fresh > resident, "mlock fresh " + fresh + " ns/page vs resident " + resident);
        double pairPer = median(MlockProbe.NAME, MlockProbe.PAIR_RESIDENT + "per page");
        double gbps = median(MlockProbe.NAME, MlockProbe.PAIR_RESIDENT + "throughput");
        assertEquals(4096 / pairPer, gbps, 4096 / pairPer * 0.5, "throughput follows the per-page cost");
    }

    @Test
    void userfaultfdFaultsAreResolvedWithoutTheHandlerAllocating() {
        Assumptions.assumeTrue(measured(UserfaultfdProbe.NAME), () -> "userfaultfd skipped: " + result.skipped());
        double zero = median(UserfaultfdProbe.NAME, UserfaultfdProbe.ZEROPAGE) * 1000;
        double first = median(TouchProbe.NAME, TouchProbe.FIRST);
        assertTrue(zero > first, "a fault resolved in user space (" + zero + " ns) costs more than one the kernel "
                + "resolves alone (" + first + " ns)");
        assertTrue(median(UserfaultfdProbe.NAME, UserfaultfdProbe.COPY) > 0);
        // Linking a call site or customizing a method handle on the handler thread allocates
        // about 100 KB; the handler links everything before it serves. The bound leaves room only
        // for the few hundred bytes a JIT deoptimization may reallocate on a long run.
        if (uffd.handlerAllocatedBytes() >= 0) {
            assertTrue(uffd.handlerAllocatedBytes() <= 2048,
                    "bytes the handler threads allocated while serving: " + uffd.handlerAllocatedBytes());
        }
    }

    @Test
    void hugePageFirstTouchIsCheaperThanFiveHundredTwelveFaults() {
        Assumptions.assumeTrue(result.find(ThpProbe.NAME, ThpProbe.ON).isPresent(), "THP on was skipped");
        // The fastest runs: on a loaded machine a median of a few runs can catch a preempted one.
        double on = result.find(ThpProbe.NAME, ThpProbe.ON).orElseThrow().min();
        double off = result.find(ThpProbe.NAME, ThpProbe.OFF).orElseThrow().min();
        assertTrue(on < off, "2 MiB first touch with THP " + on + " us, without " + off + " us");
    }

    @Test
    void everySkipNamesItsProbeAndReason() {
        for (Skipped s : result.skipped()) {
            assertFalse(s.probe().isBlank(), s.toString());
            assertFalse(s.reason().isBlank(), s.toString());
            assertFalse(s.reason().contains("\n"), s.toString());
        }
    }

    @Test
    void nothingIsLeftMappedLockedOrOpen() {
        assertEquals(0, mappings.live(), "mappings and descriptors still held");
        assertEquals(0, mappings.liveBytes());
        assertEquals(lockedBefore, lockedAfter, "VmLck before and after the calibration");
    }
}
