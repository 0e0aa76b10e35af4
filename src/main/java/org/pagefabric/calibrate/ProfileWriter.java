package org.pagefabric.calibrate;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.param.OsParameters;

/**
 * Turns a calibration into a profile that {@code extends: default}: each measured quantity that
 * has a simulator parameter becomes that parameter's value (its median), with the source
 * {@code measured: on HOST, DATE, N runs (...)}; everything else is inherited. A quantity is
 * left out, with its reason, when it was skipped or when its value would contradict the model
 * (a negative base, a zero-fill longer than the fault it is part of).
 */
public final class ProfileWriter {
    /** How every profile this writer writes begins, so that a later run may replace it and no other file. */
    public static final String WRITTEN_BY = "# Written by `pagefabric calibrate`";
    /**
     * One parameter written.
     *
     * @param parameter its name
     * @param value the value as written
     * @param unit its unit
     * @param source its provenance
     */
    public record Written(String parameter, String value, String unit, String source) {
    }

    /**
     * One parameter not written, and why (the profile inherits the default's value).
     *
     * @param parameter its name
     * @param reason why it was left out
     */
    public record Omitted(String parameter, String reason) {
    }

    /**
     * What a calibration writes.
     *
     * @param written the parameters set, in order
     * @param omitted the parameters a probe would have set but did not
     */
    public record Plan(List<Written> written, List<Omitted> omitted) {
        /** Copies the lists. */
        public Plan {
            written = List.copyOf(written);
            omitted = List.copyOf(omitted);
        }
    }

    /** How one parameter is obtained from the measurements. */
    private record Mapping(Parameter parameter, String probe, String quantity, String how) {
    }

    private static final List<Mapping> MAPPINGS = List.of(
            new Mapping(OsParameters.SYSCALL, SyscallProbe.NAME, SyscallProbe.EMPTY,
                    "syscall(SYS_getppid) through an FFM downcall"),
            new Mapping(OsParameters.PAGE_FAULT_MINOR, TouchProbe.NAME, TouchProbe.FIRST,
                    "first write to each page of a fresh mapping, THP off; 000's Touch-NoPres"),
            new Mapping(OsParameters.TOUCH_PRESENT, TouchProbe.NAME, TouchProbe.RETOUCH,
                    "read-then-write of the first byte of each resident page; 000's Touch-Pres"),
            new Mapping(OsParameters.ZERO_FILL_PER_PAGE, TouchProbe.NAME, TouchProbe.ZERO,
                    "clearing resident 4 KiB pages from user space"),
            new Mapping(OsParameters.MLOCK_BASE, MlockProbe.NAME, MlockProbe.RESIDENT_BASE,
                    "mlock of 1 and of many resident pages, base part"),
            new Mapping(OsParameters.MLOCK_PER_PAGE, MlockProbe.NAME, MlockProbe.RESIDENT_PER_PAGE,
                    "mlock of 1 and of many resident pages, per-page part"),
            new Mapping(OsParameters.MUNLOCK_BASE, MlockProbe.NAME, MlockProbe.MUNLOCK_BASE,
                    "munlock of 1 and of many pages, base part"),
            new Mapping(OsParameters.MUNLOCK_PER_PAGE, MlockProbe.NAME, MlockProbe.MUNLOCK_PER_PAGE,
                    "munlock of 1 and of many pages, per-page part"),
            new Mapping(OsParameters.PIN_BASE, MlockProbe.NAME, MlockProbe.RESIDENT_BASE,
                    "mlock of resident pages, the user-space analog of a driver's get_user_pages; base part"),
            new Mapping(OsParameters.PIN_PER_PAGE, MlockProbe.NAME, MlockProbe.RESIDENT_PER_PAGE,
                    "mlock of resident pages, the user-space analog of a driver's get_user_pages; per-page part"),
            new Mapping(OsParameters.UNPIN_BASE, MlockProbe.NAME, MlockProbe.MUNLOCK_BASE,
                    "munlock, the user-space analog of a driver's unpin; base part"),
            new Mapping(OsParameters.UNPIN_PER_PAGE, MlockProbe.NAME, MlockProbe.MUNLOCK_PER_PAGE,
                    "munlock, the user-space analog of a driver's unpin; per-page part"),
            new Mapping(OsParameters.MUNMAP_BASE, MadviseProbe.NAME, MadviseProbe.BASE,
                    "madvise(MADV_DONTNEED), which the simulator charges like munmap; base part"),
            new Mapping(OsParameters.MUNMAP_PER_PAGE, MadviseProbe.NAME, MadviseProbe.PER_PAGE,
                    "madvise(MADV_DONTNEED) of present pages, which the simulator charges like munmap; per page"),
            new Mapping(OsParameters.MINCORE_BASE, MincoreProbe.NAME, MincoreProbe.BASE,
                    "mincore of 1 and of many resident pages, base part"),
            new Mapping(OsParameters.MINCORE_PER_PAGE, MincoreProbe.NAME, MincoreProbe.PER_PAGE,
                    "mincore of 1 and of many resident pages, per-page part"),
            new Mapping(OsParameters.USERFAULTFD_FAULT_ZEROPAGE, UserfaultfdProbe.NAME, UserfaultfdProbe.ZEROPAGE,
                    "native read of a missing page resolved by a handler thread with UFFDIO_ZEROPAGE"),
            new Mapping(OsParameters.USERFAULTFD_FAULT_COPY, UserfaultfdProbe.NAME, UserfaultfdProbe.COPY,
                    "native read of a missing page resolved by a handler thread with UFFDIO_COPY"),
            new Mapping(OsParameters.USERFAULTFD_EVENT_REMOVE, UserfaultfdProbe.NAME, UserfaultfdProbe.REMOVE,
                    "madvise(MADV_DONTNEED) to the handler's read of UFFD_EVENT_REMOVE"),
            new Mapping(OsParameters.USERFAULTFD_EVENT_UNMAP, UserfaultfdProbe.NAME, UserfaultfdProbe.UNMAP,
                    "munmap to the handler's read of UFFD_EVENT_UNMAP"));

    private ProfileWriter() {
    }

    /** Which parameters the result sets, and which it cannot. */
    public static Plan plan(CalibrationResult r) {
        String prefix = "measured: on " + r.host().hostname() + ", " + r.host().date() + ", ";
        List<Written> written = new ArrayList<>();
        List<Omitted> omitted = new ArrayList<>();
        for (Mapping m : MAPPINGS) {
            Optional<Measurement> found = r.find(m.probe(), m.quantity());
            if (found.isEmpty()) {
                omitted.add(new Omitted(m.parameter().name(), "not measured (" + m.probe() + " skipped)"));
                continue;
            }
            Measurement x = found.get();
            if (x.median() < 0) {
                omitted.add(new Omitted(m.parameter().name(), "the median " + format(x.median(), x.unit()) + " "
                        + x.unit() + " is below zero: the part is smaller than the probe resolves"));
                continue;
            }
            written.add(new Written(m.parameter().name(), format(x.median(), x.unit()), x.unit(),
                    prefix + x.runs() + " runs (" + m.probe() + " probe: " + m.how() + "; median, quartiles "
                            + format(x.p25(), x.unit()) + "-" + format(x.p75(), x.unit()) + " " + x.unit() + ")"));
        }
        pageIn(r, prefix, written, omitted);
        zeroFillWithinFault(written, omitted);
        if (r.host().thpMode() != null) {
            written.add(new Written(OsParameters.THP.name(), r.host().thpMode(), "",
                    "measured: read from /sys/kernel/mm/transparent_hugepage/enabled on " + r.host().hostname() + ", "
                            + r.host().date()));
        }
        return new Plan(written, omitted);
    }

    /** os.page_in.per_page: mlock of a fresh page minus mlock of a resident one, the population part. */
    private static void pageIn(CalibrationResult r, String prefix, List<Written> written, List<Omitted> omitted) {
        String name = OsParameters.PAGE_IN_PER_PAGE.name();
        Optional<Measurement> fresh = r.find(MlockProbe.NAME, MlockProbe.FRESH_PER_PAGE);
        Optional<Measurement> resident = r.find(MlockProbe.NAME, MlockProbe.RESIDENT_PER_PAGE);
        if (fresh.isEmpty() || resident.isEmpty()) {
            omitted.add(new Omitted(name, "not measured (mlock skipped)"));
            return;
        }
        double v = fresh.get().median() - resident.get().median();
        if (v <= 0) {
            omitted.add(new Omitted(name, "mlock of fresh pages was not slower than of resident ones"));
            return;
        }
        written.add(new Written(name, format(v, "ns"), "ns", prefix + fresh.get().runs()
                + " runs (mlock probe: median per-page mlock of fresh pages, which populates them, minus that of "
                + "resident pages)"));
    }

    /** The model takes os.zero_fill.per_page out of os.page_fault.minor; it may not exceed it. */
    private static void zeroFillWithinFault(List<Written> written, List<Omitted> omitted) {
        Written zero = find(written, OsParameters.ZERO_FILL_PER_PAGE.name());
        Written fault = find(written, OsParameters.PAGE_FAULT_MINOR.name());
        if (zero == null) {
            return;
        }
        double z = new BigDecimal(zero.value()).doubleValue();
        if (fault == null) {
            written.remove(zero);
            omitted.add(new Omitted(zero.parameter(), "os.page_fault.minor, of which it is a part, was not measured"));
        } else if (z > new BigDecimal(fault.value()).doubleValue()) {
            written.remove(zero);
            omitted.add(new Omitted(zero.parameter(), "measured " + zero.value() + " ns, more than the whole minor fault ("
                    + fault.value() + " ns) it is a part of"));
        }
    }

    private static Written find(List<Written> written, String name) {
        for (Written w : written) {
            if (w.parameter().equals(name)) {
                return w;
            }
        }
        return null;
    }

    /** A time to the nanosecond, so that it converts to whole picoseconds; other units to 3 digits. */
    public static String format(double v, String unit) {
        int scale = switch (unit) {
            case "ns" -> 1;
            case "us" -> 3;
            default -> 2;
        };
        return BigDecimal.valueOf(v).setScale(scale, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** The profile's YAML text. */
    public static String yaml(CalibrationResult r, Plan plan) {
        HostInfo h = r.host();
        StringBuilder sb = new StringBuilder();
        sb.append(WRITTEN_BY).append(" on ").append(h.hostname()).append(", ").append(h.date())
                .append(": ").append(r.repetitions()).append(" timed runs per quantity.\n");
        sb.append("# Host: ").append(h.cpu()).append("; Linux ").append(h.kernel()).append("; RLIMIT_MEMLOCK ")
                .append(h.memlockText()).append("; THP ").append(h.thpMode() == null ? "absent" : h.thpMode())
                .append(".\n");
        sb.append("# Every value below was measured on this host through the FFM API; all others come from ")
                .append(ProfileRegistry.ROOT).append(".\n");
        sb.append("# Use it with: pagefabric run latency --profile THIS-FILE\n");
        sb.append("#\n# All measurements (median [p25 .. p75] unit):\n");
        for (Measurement m : r.measurements()) {
            sb.append("#   ").append(m.probe()).append(": ").append(m.quantity()).append(": ")
                    .append(format(m.median(), m.unit())).append(" [").append(format(m.p25(), m.unit())).append(" .. ")
                    .append(format(m.p75(), m.unit())).append("] ").append(m.unit()).append('\n');
        }
        for (Skipped s : r.skipped()) {
            sb.append("# Skipped ").append(s.probe()).append(" (").append(s.what()).append("): ").append(s.reason())
                    .append('\n');
        }
        for (Omitted o : plan.omitted()) {
            sb.append("# Not written: ").append(o.parameter()).append(": ").append(o.reason()).append('\n');
        }
        sb.append("name: ").append(h.profileName()).append('\n');
        sb.append("description: ").append(quote("Measured on " + h.hostname() + " (" + h.cpu() + ", Linux " + h.kernel()
                + ") by pagefabric calibrate, " + h.date())).append('\n');
        sb.append("extends: ").append(ProfileRegistry.ROOT).append('\n');
        sb.append(plan.written().isEmpty() ? "parameters: {}\n" : "parameters:\n");
        for (Written w : plan.written()) {
            sb.append("  ").append(w.parameter()).append(": {value: ").append(w.value());
            if (!w.unit().isEmpty()) {
                sb.append(", unit: ").append(w.unit());
            }
            sb.append(", source: ").append(quote(w.source())).append("}\n");
        }
        return sb.toString();
    }

    /** Writes the profile to {@code file}. */
    public static void write(Path file, CalibrationResult r, Plan plan) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        org.pagefabric.experiment.WholeFile.write(file, yaml(r, plan));
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ") + '"';
    }

    /** The default output file in the current directory: {@code calibrated-HOST.yaml}. */
    public static Path defaultFile(HostInfo h) {
        return Path.of(h.profileName().toLowerCase(Locale.ROOT) + ".yaml");
    }
}
