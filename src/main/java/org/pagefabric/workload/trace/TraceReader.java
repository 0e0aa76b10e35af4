package org.pagefabric.workload.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.nio.file.Path;
import java.util.Set;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.UserAllocator;

/**
 * Reads a trace (JSON Lines, see docs/TRACES.md): the header on the first line, then one event a
 * line; blank lines are skipped. Anything it cannot replay faithfully is refused with the file,
 * line and field, never guessed.
 */
public final class TraceReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> HEADER_FIELDS = Set.of("format", "version", "ranks", "nodes", "segment_bytes",
            "order", "segments", "brk_starts", "allocator", "source", "strace", "mpi_calls");
    private static final Set<String> STRACE_FIELDS = Set.of("rank", "file", "pid", "comm");
    private static final Set<String> COMM_FIELDS = Set.of("op", "peer", "len", "raddr");
    private static final Set<String> ALLOCATOR_FIELDS = Set.of("mmap_threshold", "trim", "trim_threshold", "top_pad",
            "release_interior_pages", "linkage");
    private static final Set<String> RECORD_FIELDS = Set.of("t", "gap", "rank", "op", "addr", "len", "new_addr",
            "new_len", "peer", "raddr", "duration", "hooked", "advice", "queue", "pinned", "call", "coll", "comm", "root",
            "recv_addr", "blocks", "members", "tag", "req", "count");
    /** Record fields only version 2 (a recorded MPI program) has. */
    private static final Set<String> MPI_FIELDS = Set.of("call", "coll", "comm", "root", "recv_addr", "blocks",
            "members", "tag", "req", "count");
    private static final long KIB = 1024;
    private static final int MAX_RANKS = 1 << 16;

    private final String file;
    private final Path dir;
    private int line;
    private long version;

    private TraceReader(String file, Path dir) {
        this.file = file;
        this.dir = dir;
    }

    /**
     * Reads a whole trace.
     *
     * @param file the name errors give (the path as the user wrote it)
     * @param dir  where the strace logs a header names are looked up
     * @throws TraceFormatException naming file, line and field of the first bad record
     * @throws IOException          if the text cannot be read
     */
    public static Trace read(String file, Reader text, Path dir) throws IOException {
        return new TraceReader(file, dir).readAll(text);
    }

    private Trace readAll(Reader text) throws IOException {
        BufferedReader in = new BufferedReader(text);
        TraceHeader header = null;
        JsonNode straceLogs = null;
        List<TraceRecord> records = new ArrayList<>();
        long lastAt = 0;
        String s;
        while ((s = in.readLine()) != null) {
            line++;
            if (s.isBlank()) {
                continue;
            }
            JsonNode n = parse(s);
            if (header == null) {
                header = header(n);
                straceLogs = n.get("strace");
                continue;
            }
            TraceRecord r = record(n, header);
            if (r.timed()) {
                if (header.fileOrder() && r.atPs() < lastAt) {
                    throw error("t", "begins before the record above it; with \"order\": \"file\" records come in the"
                            + " order they began");
                }
                lastAt = r.atPs();
            }
            records.add(r);
        }
        if (header == null) {
            throw error(null, "empty: a trace starts with its header line {\"format\":\"" + TraceHeader.FORMAT
                    + "\",\"version\":" + TraceHeader.VERSION + ",\"ranks\":N}");
        }
        if (straceLogs != null) {
            records = merge(header, records, straceLogs);
        }
        if (records.isEmpty()) {
            throw error(null, "the trace has a header and no records");
        }
        Trace trace = new Trace(file, header, records);
        if (header.mpiCalls() != null) {
            // every rank of a recorded program acts; a rank without records was lost, and the
            // others' messages to it would wait for a receive that never comes
            boolean[] acts = new boolean[header.ranks()];
            for (TraceRecord r : records) {
                acts[r.rank()] = true;
            }
            for (int r = 0; r < acts.length; r++) {
                if (!acts[r]) {
                    line = 1;
                    throw error("ranks", header.ranks() + " ranks, but rank " + r + " has no records; a recorded"
                            + " program's trace has records of every rank it counts");
                }
            }
        }
        return trace;
    }

    private JsonNode parse(String s) {
        try {
            JsonNode n = JSON.readTree(s);
            if (n == null || !n.isObject()) {
                throw error(null, "not a JSON object; every line of a trace is one {...}");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw error(null, "not JSON: " + e.getOriginalMessage());
        }
    }

    private TraceHeader header(JsonNode n) {
        unknownFields(n, HEADER_FIELDS, "header");
        JsonNode f = n.get("format");
        if (f == null || !TraceHeader.FORMAT.equals(f.asText())) {
            throw error("format", "the first line must be the header, with \"format\": \"" + TraceHeader.FORMAT + "\"");
        }
        version = integer(n, "version", true, 1, Integer.MAX_VALUE);
        if (version != TraceHeader.VERSION && version != TraceHeader.VERSION_PLAIN) {
            throw error("version", version + " is not readable; this PageFabric reads versions "
                    + TraceHeader.VERSION_PLAIN + " and " + TraceHeader.VERSION);
        }
        if (version == TraceHeader.VERSION_PLAIN && n.has("mpi_calls")) {
            throw error("mpi_calls", "needs \"version\": " + TraceHeader.VERSION);
        }
        int ranks = (int) integer(n, "ranks", true, 1, MAX_RANKS);
        int nodes = n.has("nodes") ? (int) integer(n, "nodes", true, 1, ranks) : ranks;
        long segment = n.has("segment_bytes") ? integer(n, "segment_bytes", true, 1, 1L << 40) : 4 * KIB;
        boolean fileOrder = false;
        if (n.has("order")) {
            String o = n.get("order").asText();
            if (!o.equals("file") && !o.equals("rank")) {
                throw error("order", "'" + o + "' is not valid; valid values: file, rank");
            }
            fileOrder = o.equals("file");
        }
        long[] segments = n.has("segments") ? addresses(n, "segments", ranks) : null;
        long[] brkStarts = n.has("brk_starts") ? addresses(n, "brk_starts", ranks) : null;
        UserAllocator.Config alloc = allocator(n.get("allocator"));
        String source = n.has("source") ? n.get("source").asText() : "";
        List<Map<String, Long>> calls = n.has("mpi_calls") ? mpiCalls(n.get("mpi_calls"), ranks) : null;
        return new TraceHeader(ranks, nodes, segment, fileOrder, segments, brkStarts, alloc, source, calls);
    }

    /** Per rank, the recorder's count of each MPI function: a list of {"MPI_X": N, ...}, one per rank. */
    private List<Map<String, Long>> mpiCalls(JsonNode v, int ranks) {
        if (!v.isArray() || v.size() != ranks) {
            throw error("mpi_calls", "must be a list of " + ranks + " objects, one per rank, {\"MPI_Send\": N, ...}");
        }
        List<Map<String, Long>> out = new ArrayList<>();
        for (JsonNode rank : v) {
            if (!rank.isObject()) {
                throw error("mpi_calls", "each entry is an object {\"MPI_Send\": N, ...}");
            }
            Map<String, Long> counts = new TreeMap<>();
            Iterator<String> names = rank.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                counts.put(name, integer(rank, name, true, 0, Long.MAX_VALUE));
            }
            out.add(counts);
        }
        return out;
    }

    /**
     * The records with each strace log's memory calls (and the communication its entry adds after
     * each mapping) merged into its rank's, by time.
     */
    private List<TraceRecord> merge(TraceHeader h, List<TraceRecord> own, JsonNode logs) throws IOException {
        line = 1;
        if (!logs.isArray()) {
            throw error("strace", "must be a list of {\"rank\": R, \"file\": LOG, \"comm\": {...}}");
        }
        if (h.fileOrder()) {
            throw error("strace", "a trace with strace logs replays in \"order\": \"rank\" (the logs do not say"
                    + " how their calls interleave with other ranks')");
        }
        Map<Integer, List<TraceRecord>> byRank = new TreeMap<>();
        for (TraceRecord r : own) {
            byRank.computeIfAbsent(r.rank(), k -> new ArrayList<>()).add(r);
        }
        for (JsonNode entry : logs) {
            if (!entry.isObject()) {
                throw error("strace", "each entry is an object {\"rank\": R, \"file\": LOG}");
            }
            unknownFields(entry, STRACE_FIELDS, "strace entry");
            int rank = (int) integer(entry, "rank", true, 0, h.ranks() - 1);
            if (!entry.has("file")) {
                throw error("strace.file", "missing; the strace -f -tt -e trace=memory log of rank " + rank);
            }
            StraceImport.CommPattern comm = comm(entry.get("comm"), rank, h);
            List<TraceRecord> mine = byRank.computeIfAbsent(rank, k -> new ArrayList<>());
            for (TraceRecord r : mine) {
                if (!r.timed()) {
                    line = r.line();
                    throw error("gap", "rank " + rank + " also replays an strace log; its own records need t to be"
                            + " merged with the log's calls");
                }
            }
            Path log = dir.resolve(entry.get("file").asText());
            List<TraceRecord> imported;
            try {
                org.pagefabric.config.TextFiles.regular(log, "an strace log");
            } catch (java.nio.file.NoSuchFileException e) {
                throw error("strace.file", log + ": no such file");
            } catch (org.pagefabric.config.TextFiles.Unreadable e) {
                throw error("strace.file", log + ": " + e.getMessage());
            }
            try (Reader in = java.nio.file.Files.newBufferedReader(log)) {
                imported = StraceImport.read(log.toString(), in, rank, comm, pid(entry));
            } catch (java.nio.file.NoSuchFileException e) {
                throw error("strace.file", log + ": no such file");
            } catch (java.nio.charset.CharacterCodingException e) {
                throw error("strace.file", log + ": is not UTF-8 text; save the file as UTF-8");
            }
            mine.addAll(imported);
            mine.sort(java.util.Comparator.comparingLong(TraceRecord::atPs));
        }
        List<TraceRecord> all = new ArrayList<>();
        byRank.values().forEach(all::addAll);
        return all;
    }

    /** The process an strace entry imports: a number, "all", or by default the busiest. */
    private long pid(JsonNode entry) {
        JsonNode p = entry.get("pid");
        if (p == null) {
            return StraceImport.BUSIEST_PID;
        }
        if (p.isTextual() && p.asText().equals("all")) {
            return StraceImport.ALL_PIDS;
        }
        return integer(entry, "pid", true, 1, Integer.MAX_VALUE);
    }

    private StraceImport.CommPattern comm(JsonNode c, int rank, TraceHeader h) {
        if (c == null) {
            return null;
        }
        if (!c.isObject()) {
            throw error("strace.comm", "must be an object {\"op\": \"put\", \"peer\": P, \"len\": BYTES}");
        }
        unknownFields(c, COMM_FIELDS, "strace comm");
        String o = c.has("op") ? c.get("op").asText() : "put";
        if (!o.equals("put") && !o.equals("get")) {
            throw error("strace.comm.op", "'" + o + "' is not valid; valid values: put, get");
        }
        int peer = (int) integer(c, "peer", true, 0, h.ranks() - 1);
        if (peer == rank) {
            throw error("strace.comm.peer", peer + " is the log's own rank; a communication needs another rank");
        }
        long len = integer(c, "len", true, 1, h.segmentBytes());
        long raddr = c.has("raddr") ? address(c, "raddr") : h.segments() == null ? 0 : h.segments()[peer];
        return new StraceImport.CommPattern(TraceOp.byWireName(o), peer, len, raddr);
    }

    private UserAllocator.Config allocator(JsonNode a) {
        if (a == null) {
            return new UserAllocator.Config(128 * KIB, true, 128 * KIB, 128 * KIB, false, UserAllocator.Linkage.DYNAMIC);
        }
        if (!a.isObject()) {
            throw error("allocator", "must be an object, e.g. {\"mmap_threshold\": 131072, \"linkage\": \"dynamic\"}");
        }
        unknownFields(a, ALLOCATOR_FIELDS, "allocator");
        long threshold = a.has("mmap_threshold") ? integer(a, "mmap_threshold", true, 16, 1L << 40) : 128 * KIB;
        boolean trim = !a.has("trim") || flag(a, "trim");
        long trimThreshold = a.has("trim_threshold") ? integer(a, "trim_threshold", true, 0, 1L << 40) : 128 * KIB;
        long topPad = a.has("top_pad") ? integer(a, "top_pad", true, 0, 1L << 40) : 128 * KIB;
        boolean interior = a.has("release_interior_pages") && flag(a, "release_interior_pages");
        UserAllocator.Linkage linkage = UserAllocator.Linkage.DYNAMIC;
        if (a.has("linkage")) {
            String l = a.get("linkage").asText().toUpperCase(Locale.ROOT);
            try {
                linkage = UserAllocator.Linkage.valueOf(l);
            } catch (IllegalArgumentException e) {
                throw error("allocator.linkage", "'" + a.get("linkage").asText()
                        + "' is not valid; valid values: dynamic, static, custom");
            }
        }
        return new UserAllocator.Config(threshold, trim, trimThreshold, topPad, interior, linkage);
    }

    private TraceRecord record(JsonNode n, TraceHeader h) {
        unknownFields(n, RECORD_FIELDS, "record");
        JsonNode opNode = n.get("op");
        if (opNode == null) {
            throw error("op", "missing; valid values: " + TraceOp.wireNames());
        }
        TraceOp op = TraceOp.byWireName(opNode.asText());
        if (op == null) {
            throw error("op", "'" + opNode.asText() + "' is not valid; valid values: " + TraceOp.wireNames());
        }
        if (version == TraceHeader.VERSION_PLAIN) {
            if (op.mpiOnly()) {
                throw error("op", op.wireName() + " needs \"version\": " + TraceHeader.VERSION + " in the header");
            }
            for (String f : MPI_FIELDS) {
                if (n.has(f)) {
                    throw error(f, "needs \"version\": " + TraceHeader.VERSION + " in the header");
                }
            }
        }
        if (op == TraceOp.FORK) {
            throw error("op", "fork is not replayable: the trace workload runs one address space per rank, and a"
                    + " child's copy-on-write sharing of the parent's pages cannot be written as records");
        }
        if (op == TraceOp.ATOMIC) {
            throw error("op", "atomic is not replayable: applications reach registration policies through comm.Rank,"
                    + " which carries puts, gets, sends and receives, no atomics");
        }
        int rank = (int) integer(n, "rank", true, 0, h.ranks() - 1);
        for (String f : op.required()) {
            if (!n.has(f)) {
                throw error(f, "missing; " + op.wireName() + " needs " + String.join(", ", op.required()));
            }
        }
        if (n.has("t") && n.has("gap")) {
            throw error("gap", "give either t (absolute) or gap (after the rank's previous event), not both");
        }
        long at = n.has("t") ? picos(n, "t") : TraceRecord.NONE;
        long gap = n.has("gap") ? picos(n, "gap") : 0;
        long addr = n.has("addr") ? address(n, "addr") : 0;
        // MPI allows a message of no elements (at a NULL buffer); memory calls move at least a byte
        boolean empty = op == TraceOp.COLLECTIVE || op == TraceOp.SEND || op == TraceOp.RECV;
        long len = n.has("len") ? integer(n, "len", true, empty ? 0 : 1, 1L << 46) : 0;
        long newAddr = n.has("new_addr") ? address(n, "new_addr") : 0;
        long newLen = n.has("new_len") ? integer(n, "new_len", true, 1, 1L << 46) : 0;
        int peer = 0;
        if (n.has("peer")) {
            peer = (int) integer(n, "peer", true, 0, h.ranks() - 1);
            if (peer == rank) {
                throw error("peer", peer + " is the rank itself; a communication needs another rank");
            }
        }
        long raddr = n.has("raddr") ? address(n, "raddr") : 0;
        long duration = n.has("duration") ? picos(n, "duration") : 0;
        boolean hooked = !n.has("hooked") || flag(n, "hooked");
        Advice advice = Advice.DONTNEED;
        if (n.has("advice")) {
            try {
                advice = Advice.valueOf(n.get("advice").asText().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw error("advice", "'" + n.get("advice").asText() + "' is not valid; valid values: dontneed,"
                        + " hugepage, nohugepage");
            }
        }
        boolean sendQueue = false;
        if (n.has("queue")) {
            String q = n.get("queue").asText();
            if (!q.equals("send") && !q.equals("recv")) {
                throw error("queue", "'" + q + "' is not valid; valid values: send, recv");
            }
            sendQueue = q.equals("send");
        }
        long pinned = n.has("pinned") ? integer(n, "pinned", true, 0, Long.MAX_VALUE) : TraceRecord.NONE;
        return new TraceRecord(file, line, at, gap, rank, op, addr, len, newAddr, newLen, peer, raddr, duration, hooked,
                advice, sendQueue, pinned, mpi(n, op, h));
    }

    /** The version 2 fields of a record, or null when it has none. */
    private MpiFields mpi(JsonNode n, TraceOp op, TraceHeader h) {
        boolean any = false;
        for (String f : MPI_FIELDS) {
            any |= n.has(f);
        }
        if (!any) {
            return null;
        }
        String call = n.has("call") ? n.get("call").asText() : null;
        if (call != null && call.isBlank()) {
            throw error("call", "empty; the MPI function the record counts as, e.g. MPI_Send");
        }
        Collective coll = null;
        if (n.has("coll")) {
            coll = Collective.byWireName(n.get("coll").asText());
            if (coll == null) {
                throw error("coll", "'" + n.get("coll").asText() + "' is not valid; valid values: "
                        + Collective.wireNames());
            }
        }
        int comm = n.has("comm") ? (int) integer(n, "comm", true, 0, Integer.MAX_VALUE) : 0;
        int root = n.has("root") ? (int) integer(n, "root", true, 0, MAX_RANKS) : 0;
        long recvAddr = n.has("recv_addr") ? address(n, "recv_addr") : 0;
        long[] blocks = null;
        if (n.has("blocks")) {
            JsonNode b = n.get("blocks");
            if (!b.isArray() || b.size() % 4 != 0) {
                throw error("blocks", "must be a list of 4 numbers per member: send length, send offset, receive"
                        + " length, receive offset");
            }
            blocks = new long[b.size()];
            for (int i = 0; i < blocks.length; i++) {
                JsonNode holder = JSON.createObjectNode().set("blocks", b.get(i));
                blocks[i] = integer(holder, "blocks", true, 0, 1L << 46);
            }
        }
        if (coll != null && coll.varying() && blocks == null) {
            throw error("blocks", "missing; " + coll.wireName() + " gives each member's blocks");
        }
        int[] members = null;
        if (n.has("members")) {
            JsonNode m = n.get("members");
            if (!m.isArray() || m.isEmpty()) {
                throw error("members", "must be a list of the communicator's world ranks");
            }
            members = new int[m.size()];
            for (int i = 0; i < members.length; i++) {
                JsonNode holder = JSON.createObjectNode().set("members", m.get(i));
                members[i] = (int) integer(holder, "members", true, 0, h.ranks() - 1);
            }
        }
        if (op == TraceOp.COMM && comm < 2) {
            throw error("comm", comm + " is taken: 0 is MPI_COMM_WORLD and 1 MPI_COMM_SELF");
        }
        boolean pointToPoint = op == TraceOp.SEND || op == TraceOp.RECV;
        int tag = 0;
        if (n.has("tag")) {
            if (!pointToPoint) {
                throw error("tag", "only a send or a receive has a tag");
            }
            tag = (int) integer(n, "tag", true, 0, Integer.MAX_VALUE);
        }
        long request = MpiFields.NO_REQUEST;
        if (n.has("req")) {
            if (!pointToPoint && op != TraceOp.WAIT) {
                throw error("req", "only a send, a receive or a wait names a request");
            }
            request = integer(n, "req", true, 1, Long.MAX_VALUE);
        }
        long count = 1;
        if (n.has("count")) {
            if (op != TraceOp.MPI || call == null) {
                throw error("count", "only an mpi record with a call repeats");
            }
            count = integer(n, "count", true, 1, Long.MAX_VALUE);
        }
        return new MpiFields(call, coll, comm, root, recvAddr, blocks, members, tag, request, count);
    }

    private void unknownFields(JsonNode n, Set<String> known, String what) {
        Iterator<String> names = n.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!known.contains(f)) {
                throw error(f, "unknown in a " + what + "; valid fields: " + String.join(", ", known.stream().sorted().toList()));
            }
        }
    }

    private boolean flag(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (!v.isBoolean()) {
            throw error(field, "'" + v + "' is not valid; valid values: true, false");
        }
        return v.booleanValue();
    }

    private long integer(JsonNode n, String field, boolean required, long min, long max) {
        JsonNode v = n.get(field);
        if (v == null) {
            throw error(field, "missing");
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw error(field, "'" + v + "' is not valid; a whole number from " + min + " to " + max);
        }
        return v.longValue();
    }

    /** An address: a whole number, or a string of hex digits after 0x (as strace prints them). */
    private long address(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v.isIntegralNumber() && v.canConvertToLong() && v.longValue() >= 0) {
            return v.longValue();
        }
        if (v.isTextual()) {
            String s = v.asText().strip();
            try {
                if (s.startsWith("0x") || s.startsWith("0X")) {
                    return Long.parseUnsignedLong(s.substring(2), 16);
                }
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                // falls through to the error below
            }
        }
        throw error(field, "'" + v + "' is not an address; write a whole number or \"0x\" and hex digits");
    }

    private long[] addresses(JsonNode n, String field, int ranks) {
        JsonNode v = n.get(field);
        if (!v.isArray() || v.size() != ranks) {
            throw error(field, "must be a list of " + ranks + " addresses, one per rank");
        }
        long[] out = new long[ranks];
        for (int i = 0; i < ranks; i++) {
            JsonNode holder = JSON.createObjectNode().set(field, v.get(i));
            out[i] = address(holder, field);
        }
        return out;
    }

    /** Nanoseconds (a whole or decimal number, at most to the picosecond) as picoseconds. */
    private long picos(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (!v.isNumber()) {
            throw error(field, "'" + v + "' is not valid; a number of nanoseconds, 0 or more");
        }
        BigDecimal ps = v.decimalValue().movePointRight(3);
        if (ps.signum() < 0 || ps.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw error(field, v + " is out of range; a number of nanoseconds, 0 or more");
        }
        try {
            BigInteger exact = ps.toBigIntegerExact();
            return exact.longValueExact();
        } catch (ArithmeticException e) {
            throw error(field, v + " ns is finer than the simulator's picosecond");
        }
    }

    private TraceFormatException error(String field, String problem) {
        return new TraceFormatException(file, line, field, problem);
    }
}
