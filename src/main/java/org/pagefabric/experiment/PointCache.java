package org.pagefabric.experiment;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.pagefabric.experiment.ExperimentSpec.Axis;
import org.pagefabric.experiment.ExperimentSpec.AxisKind;

/**
 * Finished points kept under an output root, one file each ({@code OUT/.points/HASH.json}), so
 * that a run stopped by Ctrl-C, {@code kill -9} or a lost node resumes where it was, and a
 * re-run skips what is done. A point's file name is the SHA-256 of everything its row depends
 * on ({@link #key}): the experiment, policy, grid point and repetition, every resolved workload
 * parameter, the whole resolved profile, the seed, the row's columns, the PageFabric version,
 * the git commit and a digest of the running code ({@link CodeFingerprint}). Changing any of
 * them, a {@code --set} value or the code included, gives other keys, so exactly the affected
 * points run again and a stale row is never read.
 *
 * <p>Files are written to a temporary name and renamed into place, so a reader sees a whole
 * file or none, and shards sharing one output root can write side by side. Each file carries a
 * SHA-256 of the rest of its content, so an edit that still parses (one digit of a latency) is
 * caught like a truncated file, one of another point or of another format: such a file is listed
 * in {@link #damaged()}, its point runs again and overwrites it. Safe for concurrent use.
 */
public final class PointCache {
    /** The cache's directory under an output root. */
    public static final String DIRECTORY = ".points";

    /** Bumped when the file layout or the key's contents change, so older files are never read. */
    private static final int FORMAT = 2;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger stored = new AtomicInteger();
    private final java.util.Queue<String> damaged = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private PointCache(Path dir) {
        this.dir = dir;
    }

    /** The cache of output root {@code root}: {@code root/.points}, created on the first store. */
    public static PointCache under(Path root) {
        return new PointCache(root.resolve(DIRECTORY));
    }

    /** The directory holding the points' files. */
    public Path directory() {
        return dir;
    }

    /** How many points were read back so far. */
    public int hits() {
        return hits.get();
    }

    /** How many points were stored so far. */
    public int stored() {
        return stored.get();
    }

    /**
     * The hex SHA-256 naming point {@code p} of {@code spec} (the effective spec its runner
     * expanded). Everything that can change its row is in the digest.
     */
    static String key(ExperimentSpec spec, ExperimentPoint p) {
        StringBuilder b = new StringBuilder(4096);
        line(b, "format", FORMAT);
        ResultWriter.build().forEach((k, v) -> {
            // the JVM vendor and version do not change a deterministic simulation's rows
            if (!k.equals("jvm")) {
                line(b, k, v);
            }
        });
        line(b, "code", CodeFingerprint.value());
        line(b, "experiment", spec.id());
        line(b, "workload", spec.workload().name());
        line(b, "metrics", spec.workload().metrics());
        line(b, "policy", p.policy());
        line(b, "point", p.point());
        line(b, "repetition", p.repetition());
        line(b, "seed", p.seed());
        // sorted, with each value's type: 8 and 8.0 are different inputs
        new TreeMap<>(spec.workload().resolve(p.workloadValues())).forEach((k, v) ->
                line(b, "workload." + k, v == null ? "null" : v.getClass().getName() + ":" + v));
        for (Axis a : spec.grid()) {
            if (a.kind() == AxisKind.PROFILE) {
                line(b, "profile-column", a.key() + "->" + a.column());
            }
        }
        b.append("profile:\n").append(p.profile().dump());
        return HexFormat.of().formatHex(CodeFingerprint.sha256().digest(b.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static void line(StringBuilder b, String name, Object value) {
        b.append(name).append('=').append(value).append('\n');
    }

    /**
     * The point files found damaged so far, each as "NAME: what is wrong" (edited, truncated, not
     * JSON, another point's or another format's), in name order. Their points ran again.
     */
    public List<String> damaged() {
        List<String> out = new ArrayList<>(damaged);
        out.sort(null);
        return out;
    }

    /**
     * The row stored under {@code key}, or {@code null} if there is none or it does not read back
     * whole and unchanged (then the point runs again, and the file is listed in {@link #damaged}).
     */
    Map<String, Object> find(String key) {
        Path f = dir.resolve(key + ".json");
        if (!Files.exists(f)) {
            return null;
        }
        Map<String, Object> file;
        try {
            file = JSON.readValue(f.toFile(), new TypeReference<LinkedHashMap<String, Object>>() { });
        } catch (IOException e) {
            return damaged(f, "not whole JSON (truncated or overwritten)");
        }
        try {
            if (!Integer.valueOf(FORMAT).equals(file.get("format")) || !key.equals(file.get("key"))) {
                return damaged(f, "another point's file or another format's (foreign)");
            }
            Object stated = file.remove("digest");
            if (!digest(file).equals(stated)) {
                return damaged(f, "content does not match its digest (edited)");
            }
            @SuppressWarnings("unchecked")
            List<List<String>> cells = (List<List<String>>) file.get("row");
            Map<String, Object> row = RowCodec.decode(cells);
            hits.incrementAndGet();
            return row;
        } catch (ClassCastException | IllegalArgumentException | NullPointerException e) {
            return damaged(f, "a row that does not decode");
        }
    }

    private Map<String, Object> damaged(Path file, String why) {
        damaged.add(file.getFileName() + ": " + why);
        return null;
    }

    /** The SHA-256 of a point file's content without its digest, as {@link #store} writes it. */
    private static String digest(Map<String, Object> fileWithoutDigest) {
        return HexFormat.of().formatHex(CodeFingerprint.sha256().digest(
                ResultWriter.json(fileWithoutDigest).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * What a point took to run, kept beside its row (never part of it) so that the cost
     * estimate that orders and shards points can be checked against what points really take.
     *
     * @param cpuSeconds    CPU time of the thread that ran it
     * @param wallSeconds   wall time
     * @param estimatedCost the point's estimated CPU seconds ({@link CostModel})
     */
    record Timing(double cpuSeconds, double wallSeconds, double estimatedCost) {
    }

    /**
     * Stores {@code row} as point {@code p}'s under {@code key}, with what it took; a row with a
     * value the file cannot carry exactly is not stored (its point would run again).
     *
     * @throws WriteFailedException if the directory or file cannot be written
     */
    void store(String key, ExperimentPoint p, Map<String, Object> row, Timing timing) {
        List<List<String>> cells = RowCodec.encode(row);
        if (cells == null) {
            return;
        }
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("format", FORMAT);
        file.put("key", key);
        // for a person looking into the directory: which point this is
        file.put("experiment", row.get("experiment"));
        file.put("label", p.label());
        file.put("build", ResultWriter.build());
        file.put("cpu_s", Math.round(timing.cpuSeconds() * 1000) / 1000.0);
        file.put("wall_s", Math.round(timing.wallSeconds() * 1000) / 1000.0);
        file.put("estimated_cost", timing.estimatedCost());
        file.put("row", cells);
        file.put("digest", digest(file));
        try {
            WholeFile.write(dir.resolve(key + ".json"), ResultWriter.json(file));
        } catch (WriteFailedException e) {
            throw new WriteFailedException("cannot store a finished point in " + dir + ": " + e.reason(), e.reason());
        }
        stored.incrementAndGet();
    }
}
