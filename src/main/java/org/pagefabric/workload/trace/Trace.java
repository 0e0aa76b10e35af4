package org.pagefabric.workload.trace;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.TextFiles;

/**
 * A trace as read: its header and its records in file order.
 *
 * @param file    the name the trace was read under
 * @param header  the header
 * @param records the events
 */
public record Trace(String file, TraceHeader header, List<TraceRecord> records) {
    /** Copies the list. */
    public Trace {
        records = List.copyOf(records);
    }

    /**
     * Reads the trace at {@code path}.
     *
     * @throws TraceFormatException for a bad record, or a file that cannot be read
     */
    public static Trace read(Path path) {
        String name = path.toString();
        try {
            TextFiles.regular(path, "a trace file");
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(name, 0, null, "no such file");
        } catch (TextFiles.Unreadable e) {
            throw new TraceFormatException(name, 0, null, e.getMessage());
        } catch (IOException e) {
            throw new TraceFormatException(name, 0, null, "cannot be read: " + e.getMessage());
        }
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return TraceReader.read(name, r, path.toAbsolutePath().getParent());
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(name, 0, null, "no such file");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new TraceFormatException(name, 0, null, "is not UTF-8 text; save the file as UTF-8");
        } catch (IOException e) {
            throw new TraceFormatException(name, 0, null, "cannot be read: " + e.getMessage());
        }
    }

    /**
     * Whether the trace is a recorded MPI program's (version 2): it has the recorder's tally, or a
     * record with MPI fields or an MPI-only operation. Its sends and receives are MPI's, matched by
     * envelope; otherwise they are verbs', matched in the order posted.
     */
    public boolean mpi() {
        if (header.mpiCalls() != null) {
            return true;
        }
        for (TraceRecord r : records) {
            if (r.mpi() != null || r.op().mpiOnly()) {
                return true;
            }
        }
        return false;
    }

    /** The operations the trace contains. */
    public Set<TraceOp> ops() {
        Set<TraceOp> ops = EnumSet.noneOf(TraceOp.class);
        for (TraceRecord r : records) {
            ops.add(r.op());
        }
        return ops;
    }
}
