package org.pagefabric.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Generates hostile inputs for the command line from a seed: argument lists of random options
 * and values, specs mutated from bundled ones, and profiles mutated from bundled ones. Every
 * case is either refused or runs tiny (one size, one iteration, one thread), so that thousands
 * run in seconds; every path it names is under the case's directories or one that cannot be
 * written ({@code /dev/full}).
 */
final class FuzzInputs {
    /** The spec and profile a case writes into its input directory. */
    static final String SPEC = "spec.yaml";
    static final String PROFILE = "profile.yaml";
    static final String OTHER_PROFILE = "other.yaml";
    /** An existing regular file and directory in every case's input directory. */
    static final String REGULAR = "regular.txt";
    static final String DIRECTORY = "dir";

    /** Bundled specs whose workloads run a point in milliseconds once their grid is cut to one value per key. */
    private static final List<String> SPEC_BASES = List.of("omx.table1", "omx.fig6", "omx.fig7", "part.fig7",
            "fh.fig5", "odp.fault");
    // not the root profile: its few hundred lines cost more to read than any check they reach
    private static final List<String> PROFILE_BASES = List.of("part-forth", "odp-connectx",
            "openmx-xeon5460", "openmx-base", "firehose-myrinet", "aa-crayxe6");
    private static final List<String> CHEAP_WORKLOADS = List.of("latency", "bandwidth", "pingpong", "pin-cost",
            "send-fault", "fault-latency");
    private static final List<String> POLICIES = List.of("pin-all", "pin-on-demand", "odp", "openmx-pin",
            "openmx-cache", "openmx-overlap", "part-pio", "firehose", "nonsense", "PIN-ALL", "");

    /** Numbers and strings that break parsers: NaN, infinities, overflow, non-ASCII digits, units, types. */
    static final List<String> HOSTILE = List.of("", " ", "0", "-1", "1", "NaN", ".nan", ".NaN", ".inf", "-.inf",
            "Infinity", "1e309", "1e-300", "4.9e-324", "1e12", "-1e300", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "2147483647", "99999999999999999999999", "0x7fffffff", "0o777", "1_000",
            "\u0668", "\uff18", "1\u0668K", "18014398509481985K", "1 B", "1e-300 Gbps", "5 parsecs", "true", "null",
            "~", "[]", "{}", "[1, [2, [3]]]", "{a: 1}", "'", "\"", "\"unterminated", "&a", "*a", "!!binary AAAA",
            "!!java.io.File /etc/hostname", "!custom x", "%TAG", "@", "\t", "\u0000", "a\u0007b", "\u202e",
            "x".repeat(5000), "../../../../etc/passwd", "..", ".", "/", "%s%n%x", "${java.home}", "-", "--");
    private static final List<String> SIZES = List.of("8", "8..64", "4K", "8,64", "1..4611686018427387904",
            "18014398509481985K", "\u0668", "8..x", "0", "-8", "64..8", "", ",", "1G1", "8...16", "9223372036854775807",
            "8K..1K", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,"
                    + "33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65");
    private static final List<String> ITERATIONS = List.of("1", "2", "0", "-1", "x", "2147483648", "\u0668", "",
            "1e3", "NaN");
    private static final List<String> SETS = List.of("link.loss=0.01", "link.loss=NaN", "link.loss=-1", "link.loss=2",
            "nosuch.key=1", "=1", "novalue", "link.loss=", "cpu.cores=1e12", "memory.size=1 B", "link.bandwidth=1e-300 Gbps",
            "transport.mtu=9223372036854775807", "transport.mtu=0", "iterations=0", "seed=x", "repetitions=-1",
            "size_B=1e309", "link.latency=-5 ns", "link.latency=1e300 s", "cpu.frequency=0 GHz", "memory.page_size=3 KiB",
            "profile=../x", "fault_fraction=2", "link.loss=0.01=0.02", "link.loss=\u0668");

    // shared by the fuzzer's lanes, which generate cases at the same time
    private static final Map<String, String> BASE_SPECS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<String, String> BASE_PROFILES = new java.util.concurrent.ConcurrentHashMap<>();

    private final Path in;
    private final Path out;
    private final Path fifo;

    /**
     * @param in the case's input directory (its files, {@link #REGULAR} and {@link #DIRECTORY} are there)
     * @param out the case's output directory, the only place a case may write
     * @param fifo a named pipe, or {@code null} where none could be made
     */
    FuzzInputs(Path in, Path out, Path fifo) {
        this.in = in;
        this.out = out;
        this.fifo = fifo;
    }

    /** The case {@code seed} makes: the same seed, the same case. */
    FuzzCase generate(long seed) {
        Random r = new Random(seed);
        int k = r.nextInt(100);
        if (k < 50) {
            return argumentCase(seed, r);
        }
        if (k < 78) {
            return specCase(seed, r);
        }
        return profileCase(seed, r);
    }

    // ---- argument lists -------------------------------------------------------------------

    private FuzzCase argumentCase(long seed, Random r) {
        List<String> a = new ArrayList<>();
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(REGULAR, "--sizes\n8\n".getBytes(StandardCharsets.UTF_8));
        int k = r.nextInt(100);
        if (k < 50) {
            a.add("run");
            a.add(r.nextInt(6) == 0 ? pick(r, HOSTILE) : pick(r, CHEAP_WORKLOADS));
            runOptions(r, a, true);
        } else if (k < 58) {
            a.add("compare");
            a.add(r.nextInt(4) == 0 ? pick(r, HOSTILE) : pick(r, List.of("latency", "pin-cost", "pingpong")));
            runOptions(r, a, false);
        } else if (k < 70) {
            a.add("reproduce");
            a.add(pick(r, List.of("part.fig99", "nosuch", "", "..", "../spec.yaml", "part.", in.resolve(DIRECTORY)
                    .toString(), in.resolve(REGULAR).toString(), in.resolve("missing.yaml").toString(), "/dev/full",
                    fifo == null ? "nosuch.yaml" : fifo.toString())));
            a.addAll(List.of("--quick", "--threads", "1"));
            a.addAll(List.of("--out", outValue(r)));
            for (int i = r.nextInt(3); i > 0; i--) {
                option(r, a, pick(r, List.of("--shard", "--set", "--format", "--resume", "--no-cache", "--bogus")));
            }
        } else if (k < 75) {
            a.add("info");
            for (int i = r.nextInt(3); i > 0; i--) {
                a.add(r.nextBoolean() ? pick(r, HOSTILE) : pick(r, List.of("profiles", "policies", "schemes",
                        "workloads", "parameters", "experiments", "default", "pin-all", "latency", "--bogus",
                        "link.loss", "part.fig7")));
            }
        } else if (k < 86) {
            // always refused before measuring: a calibration takes seconds and writes where it is told
            a.addAll(List.of("calibrate", "--quick"));
            if (r.nextBoolean()) {
                a.addAll(List.of("--repetitions", pick(r, List.of("0", "-1", "x", "99999999999", "", "\u0668"))));
            }
            a.addAll(List.of("--out", pick(r, List.of("", "/dev/full", in.resolve(DIRECTORY).toString(),
                    in.resolve(REGULAR).resolve("below.yaml").toString(), "/proc"))));
        } else if (k < 92) {
            a.add("merge");
            a.add(pick(r, List.of(in.resolve(DIRECTORY).toString(), in.resolve(REGULAR).toString(), out.toString(),
                    "", "/dev/full")));
            a.addAll(List.of("--out", outValue(r)));
        } else {
            for (int i = 1 + r.nextInt(4); i > 0; i--) {
                a.add(r.nextBoolean() ? pick(r, HOSTILE) : pick(r, List.of("run", "--help", "-h", "--version",
                        "-V", "@" + in.resolve(REGULAR), "@" + in.resolve("missing"), "--sizes", "--out", "bench")));
            }
            if (a.contains("bench") || a.contains("run") && !a.contains("--help") && !a.contains("-h")) {
                // neither a benchmark nor a full-size run is tiny: keep the command but refuse it
                a.add("--bogus");
            }
        }
        return new FuzzCase(seed, "args", a, files, List.of());
    }

    /** Options of run and compare, each with a plausible or hostile value; sizes and iterations always tiny or refused. */
    private void runOptions(Random r, List<String> a, boolean run) {
        a.addAll(List.of("--sizes", pick(r, SIZES), "--iterations", pick(r, ITERATIONS)));
        List<String> names = new ArrayList<>(List.of("--policy", "--profile", "--seed", "--format", "--set", "--out",
                "--bogus", "--sizes", "--iterations", "--threads", "--quick"));
        if (run) {
            names.addAll(List.of("--scheme", "--record-trace", "--policy"));
        }
        boolean threads = false;
        boolean outGiven = false;
        for (int i = r.nextInt(5); i > 0; i--) {
            String o = pick(r, names);
            threads |= o.equals("--threads");
            outGiven |= o.equals("--out");
            if (!run && o.equals("--quick")) {
                a.add(o);
            } else if (!o.equals("--quick")) {
                option(r, a, o);
            }
        }
        if (!threads) {
            a.addAll(List.of("--threads", "1"));
        }
        if (!outGiven && r.nextInt(8) == 0) {
            // without --out a run writes nothing at all; with it, plots and a report, which take longer
            a.addAll(List.of("--out", out.toString()));
        }
    }

    private void option(Random r, List<String> a, String o) {
        String v = switch (o) {
            case "--policy" -> pick(r, POLICIES);
            case "--profile" -> r.nextBoolean() ? pick(r, PROFILE_BASES) : pick(r, List.of("nosuch", "",
                    in.resolve(DIRECTORY).toString(), in.resolve(REGULAR).toString(), "/dev/full",
                    in.resolve("missing.yaml").toString(), fifo == null ? "nosuch" : fifo.toString(), "../default"));
            case "--seed" -> pick(r, List.of("1", "-1", "0", "9223372036854775807", "9223372036854775808", "x", "NaN"));
            case "--format" -> pick(r, List.of("table", "csv", "json", "markdown", "CSV", "xml", ""));
            case "--set" -> pick(r, SETS);
            case "--out" -> outValue(r);
            case "--threads" -> pick(r, List.of("1", "2", "0", "-1", "99999999", "x", ""));
            case "--scheme" -> pick(r, List.of("rma", "nosuch", ""));
            case "--record-trace" -> pick(r, List.of(out.resolve("trace.txt").toString(), "/dev/full", "",
                    in.resolve(DIRECTORY).toString()));
            case "--shard" -> pick(r, List.of("1/2", "0/2", "3/2", "x", "1/0", "1/9223372036854775807", "-1/2", ""));
            case "--sizes" -> pick(r, SIZES);
            case "--iterations" -> pick(r, ITERATIONS);
            default -> null;
        };
        a.add(o);
        if (v != null) {
            a.add(v);
        }
    }

    /** Mostly the case's own output directory, sometimes one that cannot be written. */
    private String outValue(Random r) {
        return r.nextInt(3) > 0 ? out.toString() : pick(r, List.of("", "/dev/full", in.resolve(REGULAR).toString(),
                in.resolve(REGULAR).resolve("below").toString(), out.resolve("deeper").toString(),
                "/proc/self/nosuch"));
    }

    // ---- specs -----------------------------------------------------------------------------

    private FuzzCase specCase(long seed, Random r) {
        String base = pick(r, SPEC_BASES);
        List<String> lines = new ArrayList<>(baseSpec(base).lines().toList());
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(REGULAR, "x\n".getBytes(StandardCharsets.UTF_8));
        // two or more changes: most specs are refused, and the few that run take the longest of all cases
        for (int i = 2 + r.nextInt(3); i > 0; i--) {
            mutateLines(r, lines, true);
        }
        if (r.nextInt(8) == 0) {
            // the spec's profile is a generated one: hostile input one level down
            lines.removeIf(l -> l.startsWith("profile:"));
            lines.add("profile: " + in.resolve(PROFILE));
            files.put(PROFILE, profileBytes(r));
        }
        files.put(SPEC, encode(r, String.join("\n", lines) + "\n"));
        List<String> a = new ArrayList<>(List.of("reproduce", in.resolve(SPEC).toString(), "--quick", "--threads",
                "1", "--out", out.toString()));
        if (r.nextInt(5) > 0) {
            // a shard runs a share of the points and writes rows only: the whole spec is still read and
            // checked, without the plots and report that take longer than a tiny point
            a.addAll(List.of("--shard", "1/2"));
        }
        if (r.nextBoolean()) {
            a.add("--no-cache");
        }
        return new FuzzCase(seed, "spec", a, files, List.of(SPEC));
    }

    /**
     * A bundled spec cut to run tiny: one value per grid key, one repetition, no quick section
     * (the case runs with --quick), a few iterations; comments dropped by the YAML round trip.
     */
    static String baseSpec(String id) {
        return BASE_SPECS.computeIfAbsent(id, i -> {
            Map<String, Object> spec = load(resource("/experiments/" + i + ".yaml"));
            spec.remove("quick");
            spec.put("repetitions", 1);
            @SuppressWarnings("unchecked")
            Map<String, Object> grid = (Map<String, Object>) spec.get("grid");
            grid.replaceAll((key, v) -> v instanceof List<?> l ? List.of(l.get(0)) : v);
            grid.computeIfPresent("iterations", (key, v) -> 2);
            return dump(spec);
        });
    }

    // ---- profiles --------------------------------------------------------------------------

    private FuzzCase profileCase(long seed, Random r) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(REGULAR, "x\n".getBytes(StandardCharsets.UTF_8));
        files.put(PROFILE, profileBytes(r));
        if (r.nextInt(5) == 0) {
            // a second file for extends to reach: a cycle through it, or through ./ paths
            files.put(OTHER_PROFILE, ("name: other\nextends: " + pick(r, List.of("./" + PROFILE, PROFILE,
                    "./././" + OTHER_PROFILE, "../in/" + PROFILE, "default")) + "\nparameters: {}\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        List<String> a = new ArrayList<>(List.of("run", pick(r, List.of("latency", "pingpong", "pin-cost")),
                "--profile", in.resolve(PROFILE).toString(), "--sizes", "8", "--iterations", "1", "--threads", "1"));
        if (r.nextInt(8) == 0) {
            a.addAll(List.of("--out", out.toString()));
        }
        return new FuzzCase(seed, "profile", a, files, List.of(PROFILE, OTHER_PROFILE));
    }

    private byte[] profileBytes(Random r) {
        String base = pick(r, PROFILE_BASES);
        List<String> lines = new ArrayList<>(BASE_PROFILES.computeIfAbsent(base,
                b -> resource("/profiles/" + b + ".yaml")).lines().toList());
        for (int i = 1 + r.nextInt(3); i > 0; i--) {
            if (r.nextInt(6) == 0) {
                lines.add(pick(r, List.of("extends: " + PROFILE, "extends: ./" + PROFILE, "extends: ./" + OTHER_PROFILE,
                        "extends: " + OTHER_PROFILE, "extends: nosuch", "extends: " + DIRECTORY, "extends: /dev/full",
                        "extends: " + (fifo == null ? "nosuch" : fifo.toString()), "extends: ''", "extends: [default]",
                        "extends: ../../../../../../etc/hostname")));
            } else {
                mutateLines(r, lines, false);
            }
        }
        return encode(r, String.join("\n", lines) + "\n");
    }

    // ---- YAML mutations --------------------------------------------------------------------

    /** One mutation of YAML text: a hostile value, a wrong type, a lost or doubled line, an alias, a tag, deep nesting. */
    private void mutateLines(Random r, List<String> lines, boolean spec) {
        int i = r.nextInt(lines.size());
        String line = lines.get(i);
        int colon = line.indexOf(": ");
        switch (r.nextInt(12)) {
            case 0, 1, 2 -> {
                if (colon > 0) {
                    lines.set(i, line.substring(0, colon + 2) + hostileScalar(r));
                }
            }
            case 3 -> lines.remove(i);
            case 4 -> lines.add(i, line);
            case 5 -> lines.add(r.nextInt(lines.size() + 1), pick(r, List.of("nosuch: 1", "  nosuch.key: 1",
                    "Id: x", "grid: {}", "parameters:", "- 1", "---", "...", "%YAML 1.1", "? complex\n: key")));
            case 6 -> {
                lines.removeIf(l -> l.startsWith(spec ? "id:" : "name:"));
                if (spec) {
                    lines.add(0, "id: " + pick(r, List.of("..", ".", "\"../escape\"", "a/b", "/tmp/x", "''",
                            "\"a\\nb\"", "x".repeat(300), "\"\\0\"", "con", "\"..\\\\..\"", "'  '", "-x", "\"a\\tb\"")));
                } else {
                    lines.add(0, "name: " + pick(r, List.of("..", "", "a/b", "default", "x".repeat(300))));
                }
            }
            case 7 -> {
                if (colon > 0) {
                    lines.set(i, line.substring(0, colon + 2) + "&a " + line.substring(colon + 2));
                    lines.add(pick(r, List.of("alias: *a", "grid: *a", "parameters: *a", "<<: *a", "x: *nosuch")));
                }
            }
            case 8 -> {
                if (colon > 0) {
                    lines.set(i, line.substring(0, colon + 2) + pick(r, List.of("!!binary AAAA ", "!!set ",
                            "!!java.io.File ", "!custom ", "!!str ", "!!float ", "!!timestamp ")) + line.substring(colon + 2));
                }
            }
            case 9 -> {
                int depth = pick(r, List.of(50, 500, 5000));
                String value = r.nextBoolean() ? "[".repeat(depth) + "]".repeat(depth)
                        : "{a: ".repeat(depth) + "1" + "}".repeat(depth);
                if (colon > 0) {
                    lines.set(i, line.substring(0, colon + 2) + value);
                }
            }
            case 10 -> lines.set(i, line.replace("  ", "\t"));
            default -> {
                if (colon > 0) {
                    lines.set(i, line.substring(0, colon + 2) + pick(r, List.of("[]", "{}", "[1, 2]", "{value: x}",
                            "[[1]]", "null", "''", "{value: 1, unit: parsecs}", "{value: .nan}", "{value: [1]}")));
                }
            }
        }
    }

    private static String hostileScalar(Random r) {
        String v = pick(r, HOSTILE);
        return r.nextBoolean() ? v : "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** UTF-8 mostly; sometimes bytes that are not UTF-8, a UTF-16 file, NULs or a cut-off file. */
    private static byte[] encode(Random r, String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return switch (r.nextInt(14)) {
            case 0 -> {
                byte[] b = utf8.clone();
                b[r.nextInt(b.length)] = (byte) (0x80 + r.nextInt(0x80));
                yield b;
            }
            case 1 -> ("\ufeff" + text).getBytes(StandardCharsets.UTF_16LE);
            case 2 -> text.replace('\n', '\0').getBytes(StandardCharsets.UTF_8);
            case 3 -> java.util.Arrays.copyOf(utf8, r.nextInt(utf8.length + 1));
            case 4 -> new byte[0];
            default -> utf8;
        };
    }

    // ---- helpers ---------------------------------------------------------------------------

    private static <T> T pick(Random r, List<T> from) {
        return from.get(r.nextInt(from.size()));
    }

    private static String resource(String name) {
        try (InputStream s = FuzzInputs.class.getResourceAsStream(name)) {
            if (s == null) {
                throw new IllegalStateException("no resource " + name);
            }
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> load(String text) {
        return (Map<String, Object>) new Yaml(new LoaderOptions()).load(text);
    }

    private static String dump(Map<String, Object> m) {
        DumperOptions o = new DumperOptions();
        o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        o.setWidth(400);
        return new Yaml(o).dump(m);
    }
}
