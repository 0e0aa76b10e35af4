package org.pagefabric.cli;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.experiment.ResultWriter;

/**
 * {@code shard.json} at the root of a shard's output directory: which shard of how many ran,
 * with which options and build, and for each experiment the run indices its rows hold (row
 * {@code k} of {@code ID/rows.json} is run {@code indices[k]} of the experiment's plan). That
 * is what {@code pagefabric merge} needs to put every row back in its place.
 *
 * @param shard       which shard, from 1
 * @param shards      how many shards the sweep has
 * @param quick       whether {@code --quick} was given
 * @param overrides   the {@code --set} values, in the order given
 * @param build       version, commit and JVM, as the manifests say them
 * @param experiments the experiments in the order the command named them
 */
record ShardManifest(int shard, int shards, boolean quick, Map<String, String> overrides, Map<String, Object> build,
                     List<Entry> experiments) {
    /** The file name in a shard's output directory. */
    static final String FILE_NAME = "shard.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One experiment of the shard.
     *
     * @param id       the experiment id, also its directory
     * @param source   the bundled id or the spec file it was read from
     * @param runnable false for an experiment whose {@code requires} names something missing (no rows)
     * @param points   how many runs the experiment's plan has in all
     * @param indices  the plan indices of this shard's rows, in row order
     * @param complete whether this shard ran its whole share
     */
    record Entry(String id, String source, boolean runnable, int points, List<Integer> indices, boolean complete) {
        Entry {
            indices = List.copyOf(indices);
        }
    }

    ShardManifest {
        overrides = new LinkedHashMap<>(overrides);
        build = new LinkedHashMap<>(build);
        experiments = List.copyOf(experiments);
    }

    /** Writes {@code shard.json} into {@code dir}. */
    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        org.pagefabric.experiment.WholeFile.write(dir.resolve(FILE_NAME), ResultWriter.json(this));
    }

    /**
     * Reads the {@code shard.json} of a shard directory.
     *
     * @throws IllegalArgumentException in one line if {@code dir} is not a shard directory
     */
    static ShardManifest read(Path dir) {
        Path f = dir.resolve(FILE_NAME);
        if (!Files.isRegularFile(f)) {
            throw new IllegalArgumentException(dir + ": not a shard directory (no " + FILE_NAME
                    + "; write one with reproduce --shard I/N --out " + dir + ")");
        }
        try {
            return JSON.readValue(f.toFile(), ShardManifest.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(f + ": not a shard file: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException(f + ": " + e.getMessage());
        }
    }

    /**
     * The rows a shard wrote for experiment {@code id}, as they were written.
     *
     * @throws IllegalArgumentException in one line if they are missing or unreadable
     */
    static List<Map<String, Object>> rows(Path dir, String id) {
        Path f = dir.resolve(id).resolve("rows.json");
        try {
            return new ArrayList<>(JSON.readValue(f.toFile(), new TypeReference<List<LinkedHashMap<String, Object>>>() { }));
        } catch (JacksonException e) {
            throw new IllegalArgumentException(f + ": not the rows of a shard: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException(f + ": cannot be read: " + e.getMessage());
        }
    }
}
