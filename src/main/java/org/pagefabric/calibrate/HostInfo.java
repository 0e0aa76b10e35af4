package org.pagefabric.calibrate;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the probes need to know about the host before measuring it: whether it is a Linux the
 * probes support, its name and date for the provenance of every value, its RLIMIT_MEMLOCK, its
 * transparent-huge-page mode and the system-call numbers of its architecture.
 *
 * @param linux whether the host runs Linux on an architecture the probes know
 * @param unsupportedReason why not, when {@code linux} is false
 * @param hostname the host's name
 * @param date the day of the calibration (ISO)
 * @param kernel the kernel release
 * @param cpu the CPU model, or the architecture if unknown
 * @param memlockSoft RLIMIT_MEMLOCK soft limit in bytes; {@code Long.MAX_VALUE} for unlimited, -1 if unknown
 * @param memlockHard RLIMIT_MEMLOCK hard limit in bytes, same conventions
 * @param thpMode the THP mode ({@code always}, {@code madvise}, {@code never}), or null if the host has none
 * @param sysGetppid the getppid system-call number
 * @param sysUserfaultfd the userfaultfd system-call number
 */
public record HostInfo(boolean linux, String unsupportedReason, String hostname, String date, String kernel,
        String cpu, long memlockSoft, long memlockHard, String thpMode, long sysGetppid, long sysUserfaultfd) {
    private static final Path THP_ENABLED = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    private static final long RLIM_INFINITY = -1L;

    /** Looks at the running host. */
    public static HostInfo detect() {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        String hostname = readHostname();
        String date = LocalDate.now().toString();
        String kernel = System.getProperty("os.version", "unknown");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return new HostInfo(false, "the host runs " + os + ", not Linux", hostname, date, kernel, arch,
                    -1, -1, null, -1, -1);
        }
        long getppid;
        long userfaultfd;
        switch (arch) {
            case "amd64", "x86_64" -> {
                getppid = 110;
                userfaultfd = 323;
            }
            case "aarch64" -> {
                getppid = 173;
                userfaultfd = 282;
            }
            default -> {
                return new HostInfo(false, "the probes know the system calls of x86_64 and aarch64 Linux, not "
                        + arch, hostname, date, kernel, arch, -1, -1, null, -1, -1);
            }
        }
        long soft = -1;
        long hard = -1;
        try (Arena arena = Arena.ofConfined()) {
            Libc libc = new Libc(arena);
            MemorySegment rlimit = arena.allocate(16, 8);
            if (libc.getrlimit(Libc.RLIMIT_MEMLOCK, rlimit) == 0) {
                soft = limit(rlimit.get(ValueLayout.JAVA_LONG, 0));
                hard = limit(rlimit.get(ValueLayout.JAVA_LONG, 8));
            }
        }
        return new HostInfo(true, null, hostname, date, kernel, cpuModel(arch), soft, hard, readThpMode(), getppid,
                userfaultfd);
    }

    private static long limit(long raw) {
        return raw == RLIM_INFINITY ? Long.MAX_VALUE : raw;
    }

    /** The RLIMIT_MEMLOCK soft limit for display: {@code 8 MiB}, {@code unlimited} or {@code unknown}. */
    public String memlockText() {
        if (memlockSoft < 0) {
            return "unknown";
        }
        if (memlockSoft == Long.MAX_VALUE) {
            return "unlimited";
        }
        return memlockSoft % (1 << 20) == 0 ? memlockSoft / (1 << 20) + " MiB" : memlockSoft / 1024 + " KiB";
    }

    private static String readHostname() {
        for (Path p : new Path[] {Path.of("/proc/sys/kernel/hostname"), Path.of("/etc/hostname")}) {
            try {
                String s = Files.readString(p).strip();
                if (!s.isEmpty()) {
                    return s;
                }
            } catch (IOException | SecurityException e) {
                // next source
            }
        }
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.strip();
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    private static String cpuModel(String arch) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    int colon = line.indexOf(':');
                    return line.substring(colon + 1).strip().replaceAll("\\s+", " ");
                }
            }
        } catch (IOException | SecurityException e) {
            // fall through
        }
        return arch;
    }

    /** The bracketed mode of {@code /sys/kernel/mm/transparent_hugepage/enabled}, or null. */
    static String readThpMode() {
        try {
            return parseThpMode(Files.readString(THP_ENABLED));
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    /** The bracketed word of a sysfs choice line such as {@code always [madvise] never}. */
    static String parseThpMode(String text) {
        Matcher m = Pattern.compile("\\[(\\w+)]").matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /** A profile name for this host: {@code calibrated-} and the host name in profile-name characters. */
    public String profileName() {
        String h = hostname.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "");
        return "calibrated-" + (h.isEmpty() ? "host" : h);
    }
}
