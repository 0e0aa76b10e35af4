package org.pagefabric.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.config.SourceCitation;
import org.pagefabric.hw.param.OsParameters;

/** The profile a calibration writes: what maps where, what is left out and why, and that it loads. */
class ProfileWriterTest {
    @TempDir
    Path dir;

    static final HostInfo HOST = new HostInfo(true, null, "Test_Host.example", "2026-01-02", "6.1.0", "Some CPU",
            8L << 20, 8L << 20, "always", 110, 323);

    private static Measurement m(String probe, String quantity, String unit, double... v) {
        return new Measurement(probe, quantity, unit, v);
    }

    private static List<Measurement> typical() {
        List<Measurement> l = new ArrayList<>();
        l.add(m(SyscallProbe.NAME, SyscallProbe.EMPTY, "ns", 180, 190, 200));
        l.add(m(TouchProbe.NAME, TouchProbe.FIRST, "ns", 800, 810, 820));
        l.add(m(TouchProbe.NAME, TouchProbe.RETOUCH, "ns", 7, 8, 9));
        l.add(m(TouchProbe.NAME, TouchProbe.ZERO, "ns", 150, 160, 170));
        l.add(m(MlockProbe.NAME, MlockProbe.FRESH_BASE, "us", 1.4, 1.5, 1.6));
        l.add(m(MlockProbe.NAME, MlockProbe.FRESH_PER_PAGE, "ns", 590, 600, 610));
        l.add(m(MlockProbe.NAME, MlockProbe.RESIDENT_BASE, "us", 1.1, 1.2, 1.3));
        l.add(m(MlockProbe.NAME, MlockProbe.RESIDENT_PER_PAGE, "ns", 140, 150, 160));
        l.add(m(MlockProbe.NAME, MlockProbe.MUNLOCK_BASE, "us", -0.2, -0.1, 0.05));
        l.add(m(MlockProbe.NAME, MlockProbe.MUNLOCK_PER_PAGE, "ns", 85, 90, 95));
        l.add(m(UserfaultfdProbe.NAME, UserfaultfdProbe.ZEROPAGE, "us", 8.1234, 8.2, 8.3));
        return l;
    }

    @Test
    void measuredValuesGoToTheSimulatorsParametersWithTheirProvenance() throws IOException {
        CalibrationResult r = new CalibrationResult(HOST, 3, typical(), List.of(
                new Skipped(MadviseProbe.NAME, "madvise", "test: not allowed")), List.of());
        ProfileWriter.Plan plan = ProfileWriter.plan(r);
        Path file = dir.resolve("host.yaml");
        ProfileWriter.write(file, r, plan);
        Profile p = ProfileRegistry.loadFile(file);

        assertEquals("calibrated-test_host.example", p.name());
        assertEquals(List.of("calibrated-test_host.example", "default"), p.chain());
        assertEquals(190_000, p.time(OsParameters.SYSCALL));
        assertEquals(810_000, p.time(OsParameters.PAGE_FAULT_MINOR));
        assertEquals(8_000, p.time(OsParameters.TOUCH_PRESENT));
        assertEquals(1_200_000, p.time(OsParameters.MLOCK_BASE));
        assertEquals(150_000, p.time(OsParameters.MLOCK_PER_PAGE));
        assertEquals(p.time(OsParameters.MLOCK_PER_PAGE), p.time(OsParameters.PIN_PER_PAGE));
        assertEquals(90_000, p.time(OsParameters.UNPIN_PER_PAGE));
        assertEquals(450_000, p.time(OsParameters.PAGE_IN_PER_PAGE), "fresh minus resident mlock per page");
        assertEquals(8_200_000, p.time(OsParameters.USERFAULTFD_FAULT_ZEROPAGE));
        assertEquals("always", p.choice(OsParameters.THP));

        Profile root = ProfileRegistry.load("default");
        assertEquals(root.time(OsParameters.MUNMAP_PER_PAGE), p.time(OsParameters.MUNMAP_PER_PAGE),
                "a skipped probe's parameters are inherited");
        assertEquals(root.time(OsParameters.MUNLOCK_BASE), p.time(OsParameters.MUNLOCK_BASE),
                "a negative base is not written");
        assertTrue(plan.omitted().stream().anyMatch(o -> o.parameter().equals("os.munlock.base")
                && o.reason().contains("below zero")), plan.omitted().toString());
        assertTrue(plan.omitted().stream().anyMatch(o -> o.parameter().equals("os.munmap.per_page")
                && o.reason().contains("madvise skipped")), plan.omitted().toString());

        for (ResolvedSetting s : p.settings()) {
            if (s.profile().equals(p.name())) {
                SourceCitation c = SourceCitation.parse(s.source());
                assertEquals(SourceCitation.Kind.MEASURED, c.kind(), s.source());
                assertTrue(c.text().startsWith("on Test_Host.example, 2026-01-02")
                        || c.text().startsWith("read from /sys/kernel/mm/transparent_hugepage/enabled on Test_Host"),
                        s.source());
                if (!s.parameter().equals(OsParameters.THP)) {
                    assertTrue(c.text().contains(", 3 runs ("), s.source());
                }
            }
        }
        assertEquals(plan.written().size(), p.settings().stream().filter(s -> s.profile().equals(p.name())).count());
    }

    @Test
    void aZeroFillLongerThanTheFaultItIsPartOfIsLeftOut() throws IOException {
        List<Measurement> l = new ArrayList<>(typical());
        l.removeIf(x -> x.quantity().equals(TouchProbe.ZERO));
        l.add(m(TouchProbe.NAME, TouchProbe.ZERO, "ns", 900, 950, 1000));
        CalibrationResult r = new CalibrationResult(HOST, 3, l, List.of(), List.of());
        ProfileWriter.Plan plan = ProfileWriter.plan(r);
        assertTrue(plan.omitted().stream().anyMatch(o -> o.parameter().equals("os.zero_fill.per_page")));
        Path file = dir.resolve("z.yaml");
        ProfileWriter.write(file, r, plan);
        Profile p = ProfileRegistry.loadFile(file);
        assertTrue(p.time(OsParameters.ZERO_FILL_PER_PAGE) <= p.time(OsParameters.PAGE_FAULT_MINOR));
    }

    @Test
    void aHostWithoutLinuxSkipsEveryProbeAndStillWritesALoadableProfile() throws IOException {
        HostInfo other = new HostInfo(false, "the host runs Plan 9, not Linux", "p9", "2026-01-02", "4", "cpu",
                -1, -1, null, -1, -1);
        CalibrationResult r = Calibration.run(Calibration.Options.of(3, true), Calibration.probes(true),
                new LiveMappings(), other);
        assertTrue(r.measurements().isEmpty());
        assertEquals(Calibration.probes(true).size(), r.skipped().size());
        assertTrue(r.skipped().stream().allMatch(s -> s.reason().contains("not Linux")));
        Path file = dir.resolve("p9.yaml");
        ProfileWriter.write(file, r, ProfileWriter.plan(r));
        Profile p = ProfileRegistry.loadFile(file);
        assertEquals(ProfileRegistry.load("default").time(OsParameters.MLOCK_PER_PAGE), p.time(OsParameters.MLOCK_PER_PAGE));
    }

    @Test
    void aSmallMemlockLimitSkipsMlockWithItsReasonAndTheOtherProbesStillRun() {
        org.junit.jupiter.api.Assumptions.assumeTrue(HostInfo.detect().linux());
        HostInfo h = HostInfo.detect();
        HostInfo tight = new HostInfo(true, null, h.hostname(), h.date(), h.kernel(), h.cpu(), 8 * Libc.PAGE,
                8 * Libc.PAGE, h.thpMode(), h.sysGetppid(), h.sysUserfaultfd());
        List<Probe> probes = List.of(new MlockProbe(1024), new SyscallProbe());
        CalibrationResult r = Calibration.run(new Calibration.Options(2, 1, true), probes, new LiveMappings(), tight);
        assertEquals(1, r.skipped().size());
        assertTrue(r.skipped().get(0).reason().contains("RLIMIT_MEMLOCK is 32 KiB"), r.skipped().toString());
        assertTrue(r.find(SyscallProbe.NAME, SyscallProbe.EMPTY).isPresent());
    }

    @Test
    void withoutTheUserfaultfdSystemCallTheProbeFallsBackToTheDeviceOrSaysWhy() {
        org.junit.jupiter.api.Assumptions.assumeTrue(HostInfo.detect().linux());
        HostInfo h = HostInfo.detect();
        // A system-call number no kernel has: userfaultfd(2) fails with ENOSYS, as on a kernel built without it.
        HostInfo noSyscall = new HostInfo(true, null, h.hostname(), h.date(), h.kernel(), h.cpu(), h.memlockSoft(),
                h.memlockHard(), h.thpMode(), h.sysGetppid(), 100_000);
        LiveMappings mappings = new LiveMappings();
        CalibrationResult r = Calibration.run(new Calibration.Options(2, 1, true), List.of(new UserfaultfdProbe(4)),
                mappings, noSyscall);
        if (r.skipped().isEmpty()) {
            assertTrue(r.notes().stream().anyMatch(n -> n.contains("/dev/userfaultfd")), r.notes().toString());
            assertTrue(r.find(UserfaultfdProbe.NAME, UserfaultfdProbe.COPY).isPresent());
        } else {
            assertTrue(r.skipped().get(0).reason().contains("ENOSYS"), r.skipped().toString());
        }
        assertEquals(0, mappings.live());
    }
}
