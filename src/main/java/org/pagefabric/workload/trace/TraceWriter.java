package org.pagefabric.workload.trace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.UserAllocator;

/**
 * Writes a trace in the form {@link TraceReader} reads: the header, then one record a line;
 * times in nanoseconds to the picosecond, addresses in hex as strace prints them.
 */
public final class TraceWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private TraceWriter() {
    }

    /** Writes {@code header} and {@code records} to {@code out}. */
    public static void write(Writer out, TraceHeader header, List<TraceRecord> records) throws IOException {
        boolean mpi = header.mpiCalls() != null;
        for (int i = 0; i < records.size() && !mpi; i++) {
            mpi = records.get(i).mpi() != null || records.get(i).op().mpiOnly();
        }
        out.write(JSON.writeValueAsString(header(header, mpi)));
        out.write('\n');
        for (TraceRecord r : records) {
            out.write(JSON.writeValueAsString(record(r)));
            out.write('\n');
        }
        out.flush();
    }

    /**
     * Writes {@code header} alone, for a trace whose records are written one at a time with
     * {@link #writeRecord}, too many to hold: version 2 when the header has an MPI tally.
     */
    public static void writeHeader(Writer out, TraceHeader header) throws IOException {
        out.write(JSON.writeValueAsString(header(header, header.mpiCalls() != null)));
        out.write('\n');
    }

    /** Writes one record, the line after the header or after the record before it. */
    public static void writeRecord(Writer out, TraceRecord r) throws IOException {
        out.write(JSON.writeValueAsString(record(r)));
        out.write('\n');
    }

    /** The header; version 2 when the trace has anything of a recorded MPI program ({@code mpi}). */
    private static ObjectNode header(TraceHeader h, boolean mpi) {
        ObjectNode n = JSON.createObjectNode();
        n.put("format", TraceHeader.FORMAT);
        n.put("version", mpi ? TraceHeader.VERSION : TraceHeader.VERSION_PLAIN);
        n.put("ranks", h.ranks());
        n.put("nodes", h.nodes());
        n.put("segment_bytes", h.segmentBytes());
        n.put("order", h.fileOrder() ? "file" : "rank");
        if (h.segments() != null) {
            ArrayNode a = n.putArray("segments");
            for (long s : h.segments()) {
                a.add(hex(s));
            }
        }
        if (h.brkStarts() != null) {
            ArrayNode a = n.putArray("brk_starts");
            for (long s : h.brkStarts()) {
                a.add(hex(s));
            }
        }
        UserAllocator.Config c = h.allocator();
        ObjectNode a = n.putObject("allocator");
        a.put("mmap_threshold", c.mmapThreshold());
        a.put("trim", c.trim());
        a.put("trim_threshold", c.trimThreshold());
        a.put("top_pad", c.topPad());
        a.put("release_interior_pages", c.releaseInteriorPages());
        a.put("linkage", c.linkage().name().toLowerCase(Locale.ROOT));
        if (!h.source().isEmpty()) {
            n.put("source", h.source());
        }
        if (h.mpiCalls() != null) {
            ArrayNode calls = n.putArray("mpi_calls");
            for (java.util.Map<String, Long> rank : h.mpiCalls()) {
                ObjectNode o = calls.addObject();
                rank.forEach(o::put);
            }
        }
        return n;
    }

    private static ObjectNode record(TraceRecord r) {
        ObjectNode n = JSON.createObjectNode();
        if (r.timed()) {
            n.put("t", nanos(r.atPs()));
        } else if (r.gapPs() > 0) {
            n.put("gap", nanos(r.gapPs()));
        }
        n.put("rank", r.rank());
        n.put("op", r.op().wireName());
        for (String f : r.op().required()) {
            if (mpiField(f)) {
                continue;
            }
            switch (f) {
                case "addr" -> n.put(f, hex(r.addr()));
                case "len" -> n.put(f, r.len());
                case "new_addr" -> n.put(f, hex(r.newAddr()));
                case "new_len" -> n.put(f, r.newLen());
                case "peer" -> n.put(f, r.peer());
                case "raddr" -> n.put(f, hex(r.raddr()));
                case "queue" -> n.put(f, r.sendQueue() ? "send" : "recv");
                case "duration" -> n.put(f, nanos(r.durationPs()));
                default -> throw new IllegalStateException("no writer for field " + f);
            }
        }
        if (r.op() == TraceOp.MADVISE && r.advice() != Advice.DONTNEED) {
            n.put("advice", r.advice().name().toLowerCase(Locale.ROOT));
        }
        if (!r.hooked()) {
            n.put("hooked", false);
        }
        if (r.pinnedBytes() != TraceRecord.NONE) {
            n.put("pinned", r.pinnedBytes());
        }
        if (r.op() == TraceOp.COLLECTIVE) {
            if (r.addr() != 0) {
                n.put("addr", hex(r.addr()));
            }
            n.put("len", r.len());
        }
        if (r.op() == TraceOp.MPI && r.durationPs() > 0) {
            n.put("duration", nanos(r.durationPs()));
        }
        if (r.mpi() != null) {
            mpi(n, r.op(), r.mpi());
        }
        return n;
    }

    private static boolean mpiField(String f) {
        return f.equals("call") || f.equals("coll") || f.equals("comm") || f.equals("members");
    }

    private static void mpi(ObjectNode n, TraceOp op, MpiFields m) {
        if (m.call() != null) {
            n.put("call", m.call());
        }
        if (m.coll() != null) {
            n.put("coll", m.coll().wireName());
        }
        if (op == TraceOp.COLLECTIVE || op == TraceOp.COMM || (op == TraceOp.SEND || op == TraceOp.RECV)
                && m.comm() != 0) {
            n.put("comm", m.comm());
        }
        if (m.tag() != 0) {
            n.put("tag", m.tag());
        }
        if (m.hasRequest()) {
            n.put("req", m.request());
        }
        if (m.count() != 1) {
            n.put("count", m.count());
        }
        if (m.coll() != null) {
            if (m.coll().rooted()) {
                n.put("root", m.root());
            }
            if (m.recvAddr() != 0) {
                n.put("recv_addr", hex(m.recvAddr()));
            }
        }
        if (m.blocks() != null) {
            ArrayNode a = n.putArray("blocks");
            for (long b : m.blocks()) {
                a.add(b);
            }
        }
        if (m.members() != null) {
            ArrayNode a = n.putArray("members");
            for (int w : m.members()) {
                a.add(w);
            }
        }
    }

    private static BigDecimal nanos(long ps) {
        BigDecimal ns = BigDecimal.valueOf(ps, 3).stripTrailingZeros();
        return ns.scale() < 0 ? ns.setScale(0) : ns;
    }

    private static String hex(long a) {
        return "0x" + Long.toHexString(a);
    }
}
