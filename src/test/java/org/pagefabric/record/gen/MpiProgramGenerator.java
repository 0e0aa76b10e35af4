package org.pagefabric.record.gen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Writes a random, correct C MPI program from a seed: a sequence of phases, each a self-contained
 * pattern among all ranks or a communicator's members that completes every message it starts, so
 * that any sequence of them is correct too. Every received byte is checked against the pattern its
 * sender wrote, so a program that exits 0 also moved the right data.
 *
 * <p>The rules that keep a phase free of deadlock and of undefined behaviour:
 * <ul>
 * <li>point-to-point: each rank posts its nonblocking operations first, then performs its blocking
 *     ones in one order common to all ranks (a global sequence), then completes the nonblocking
 *     ones. The lowest unfinished blocking operation always has its partner posted or at the same
 *     point of its own sequence, so none waits for ever; a blocking send is never assumed to be
 *     buffered;</li>
 * <li>every envelope (source, destination, tag, communicator) is used at most once in a phase, so a
 *     named receive matches exactly its message;</li>
 * <li>wildcard and probe phases: receivers only receive and senders only send; a receiver that
 *     selects by source or tag while blocking gets only nonblocking sends (so a sender blocked on
 *     one receiver cannot starve another); every message that may match a wildcard receive has that
 *     receive's size; the phase ends with a barrier on its communicator, so no later phase's message
 *     can meet one of its wildcards;</li>
 * <li>a cancelled receive names a tag (32000 and above) that no message carries, so the cancel
 *     must succeed;</li>
 * <li>tags of messages are below 30000, within the 32767 every MPI guarantees.</li>
 * </ul>
 */
public final class MpiProgramGenerator {

    /** What a program may contain; a mask of these restricts generation to a subset. */
    public enum Feature {
        /** MPI_Send, MPI_Ssend, MPI_Recv. */
        P2P,
        /** MPI_Isend, MPI_Issend, MPI_Irecv and the Wait and Test families, receives posted out of order. */
        NONBLOCKING,
        /** MPI_Sendrecv and MPI_Sendrecv_replace. */
        SENDRECV,
        /** MPI_ANY_SOURCE and MPI_ANY_TAG receives. */
        WILDCARD,
        /** MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv. */
        PROBE,
        /** MPI_Cancel of a receive nobody matches, MPI_Test_cancelled. */
        CANCEL,
        /** Send_init, Ssend_init, Recv_init, Start, Startall, Request_free. */
        PERSISTENT,
        /** Barrier, Bcast, Reduce, Allreduce, Scan, Exscan, Allgather, Gather, Scatter, Alltoall, Reduce_scatter_block. */
        COLL,
        /** Allgatherv, Gatherv, Scatterv, Alltoallv, Reduce_scatter. */
        COLLV,
        /** Communicators from Comm_split, Comm_dup, Comm_create, Cart_create, with phases on them. */
        COMM,
        /** Zero-count messages with NULL buffers. */
        ZERO,
        /** Buffers freed, reallocated and taken again (often at the same address) between messages. */
        CHURN,
        /** Messages up to 4 MiB (otherwise up to 32 KiB). */
        LARGE;

        /**
         * Parses a mask: {@code all}, a comma-separated list of names ({@code p2p,coll}), or
         * {@code all} followed by removals ({@code all,-probe,-cancel}).
         */
        public static Set<Feature> parse(String spec) {
            Set<Feature> out = EnumSet.noneOf(Feature.class);
            for (String part : spec.split(",")) {
                String p = part.trim().toUpperCase(Locale.ROOT);
                if (p.isEmpty()) {
                    continue;
                }
                if (p.equals("ALL")) {
                    out.addAll(EnumSet.allOf(Feature.class));
                } else if (p.startsWith("-")) {
                    out.remove(Feature.valueOf(p.substring(1)));
                } else {
                    out.add(Feature.valueOf(p));
                }
            }
            return out;
        }
    }

    /**
     * A generated program.
     *
     * @param seed   the seed it came from
     * @param ranks  ranks to run it on (2 to 8)
     * @param source the C source
     * @param phases one line per phase, in order, naming its pattern and calls
     */
    public record Program(long seed, int ranks, String source, List<String> phases) {
    }

    /** Default number of top-level phases at most. */
    public static final int DEFAULT_MAX_PHASES = 5;
    /** Bytes a program moves at most (roughly), so it runs natively in well under a second. */
    private static final long BUDGET = 12L << 20;
    private static final int NEVER_TAG = 32000;

    private final Random rnd;
    private final Set<Feature> f;
    private final int ranks;
    private long budget = BUDGET;
    private int phaseNo;
    private int commNo;
    private int tagBase = 1;
    private final StringBuilder globals = new StringBuilder();
    private final StringBuilder functions = new StringBuilder();
    private final List<String> calls = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();

    private MpiProgramGenerator(long seed, Set<Feature> features) {
        this.rnd = new Random(seed);
        this.f = features;
        this.ranks = 2 + rnd.nextInt(7);
    }

    /** The program of {@code seed} with every feature. */
    public static Program generate(long seed) {
        return generate(seed, EnumSet.allOf(Feature.class), DEFAULT_MAX_PHASES);
    }

    /**
     * The program of {@code seed} restricted to {@code features}, with 1 to {@code maxPhases}
     * top-level phases.
     *
     * @throws IllegalArgumentException if the features allow no phase at all
     */
    public static Program generate(long seed, Set<Feature> features, int maxPhases) {
        MpiProgramGenerator g = new MpiProgramGenerator(seed, features);
        List<String> kinds = g.phaseKinds(true);
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("features " + features + " allow no phase: add one of p2p,"
                    + " nonblocking, sendrecv, wildcard, probe, cancel, persistent, coll, collv, churn, comm");
        }
        int n = 1 + g.rnd.nextInt(Math.max(1, maxPhases));
        for (int i = 0; i < n; i++) {
            g.topPhase(kinds.get(g.rnd.nextInt(kinds.size())));
        }
        return new Program(seed, g.ranks, g.source(seed), List.copyOf(g.summary));
    }

    // ------------------------------------------------------------------ structure

    /** A communicator as the generator knows it: its handle variable and its disjoint groups of world ranks. */
    private record Comm(String var, String groupVar, List<List<Integer>> groups, String how) {
        boolean world() {
            return groupVar == null;
        }
    }

    /** One phase's C function: code every rank runs, then code per world rank. */
    private final class Fn {
        final String label;
        final StringBuilder common = new StringBuilder();
        final Map<Integer, StringBuilder> per = new TreeMap<>();
        final StringBuilder tail = new StringBuilder();

        Fn(String label) {
            this.label = label;
        }

        StringBuilder rank(int w) {
            return per.computeIfAbsent(w, k -> new StringBuilder());
        }

        void close() {
            phaseNo++;
            String name = "phase_" + phaseNo;
            StringBuilder b = new StringBuilder();
            b.append("/* ").append(label).append(" */\n");
            b.append("static void ").append(name).append("(void) {\n");
            b.append("    phase = ").append(phaseNo).append(";\n");
            b.append(indent(common.toString(), 1));
            if (!per.isEmpty()) {
                b.append("    switch (rank) {\n");
                for (Map.Entry<Integer, StringBuilder> e : per.entrySet()) {
                    b.append("    case ").append(e.getKey()).append(": {\n");
                    b.append(indent(e.getValue().toString(), 2));
                    b.append("        break;\n    }\n");
                }
                b.append("    default:\n        break;\n    }\n");
            }
            b.append(indent(tail.toString(), 1));
            b.append("}\n\n");
            functions.append(b);
            calls.add(name);
            summary.add(phaseNo + ": " + label);
        }
    }

    private static String indent(String code, int levels) {
        if (code.isEmpty()) {
            return code;
        }
        String pad = "    ".repeat(levels);
        StringBuilder b = new StringBuilder();
        for (String line : code.split("\n", -1)) {
            if (!line.isEmpty()) {
                b.append(pad).append(line);
            }
            b.append('\n');
        }
        // split leaves one empty element after the final newline
        return b.substring(0, b.length() - 1);
    }

    private Comm world() {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < ranks; i++) {
            all.add(i);
        }
        return new Comm("MPI_COMM_WORLD", null, List.of(all), "MPI_COMM_WORLD");
    }

    /** The phase kinds the features allow; {@code top} includes communicator creation. */
    private List<String> phaseKinds(boolean top) {
        List<String> k = new ArrayList<>();
        if (f.contains(Feature.P2P) || f.contains(Feature.NONBLOCKING)) {
            k.add("p2p");
            k.add("p2p");
        }
        if (f.contains(Feature.SENDRECV)) {
            k.add("sendrecv");
        }
        if (f.contains(Feature.WILDCARD)) {
            k.add("wildcard");
        }
        if (f.contains(Feature.PROBE)) {
            k.add("probe");
        }
        if (f.contains(Feature.CANCEL)) {
            k.add("cancel");
        }
        if (f.contains(Feature.PERSISTENT)) {
            k.add("persistent");
        }
        if (f.contains(Feature.COLL)) {
            k.add("coll");
            k.add("coll");
        }
        if (f.contains(Feature.COLLV)) {
            k.add("collv");
        }
        if (f.contains(Feature.CHURN)) {
            k.add("churn");
        }
        if (top && f.contains(Feature.COMM) && !k.isEmpty()) {
            k.add("comm");
            k.add("comm");
        }
        return k;
    }

    private void topPhase(String kind) {
        if (kind.equals("comm")) {
            commPhase();
        } else {
            phaseOn(kind, world());
        }
    }

    private void phaseOn(String kind, Comm c) {
        switch (kind) {
            case "p2p" -> p2p(c);
            case "sendrecv" -> sendrecv(c);
            case "wildcard" -> receiversPhase(c, false);
            case "probe" -> receiversPhase(c, true);
            case "cancel" -> cancel(c);
            case "persistent" -> persistent(c);
            case "coll" -> collectives(c, false);
            case "collv" -> collectives(c, true);
            case "churn" -> churn(c);
            default -> throw new IllegalStateException(kind);
        }
    }

    // ------------------------------------------------------------------ sizes, tags, keys

    private long logUniform(long lo, long hi) {
        double a = Math.log(lo);
        double b = Math.log(hi + 1.0);
        long v = (long) Math.floor(Math.exp(a + rnd.nextDouble() * (b - a)));
        return Math.max(lo, Math.min(hi, v));
    }

    /** A message size in bytes, log-uniform from 1 B, charged {@code copies} times to the program's budget. */
    private int size(int copies) {
        if (f.contains(Feature.ZERO) && rnd.nextInt(9) == 0) {
            return 0;
        }
        long max = f.contains(Feature.LARGE) ? 4L << 20 : 32L << 10;
        long s = logUniform(1, max);
        // a soft limit: late messages stay a few KiB rather than shrinking to a byte
        long room = Math.max(4096, budget / 3 / Math.max(1, copies));
        s = Math.min(s, room);
        budget -= s * copies;
        return (int) s;
    }

    /** A fresh range of {@code n} tags below 30000. */
    private int tags(int n) {
        if (tagBase + n >= 30000) {
            tagBase = 1;
        }
        int t = tagBase;
        tagBase += n;
        return t;
    }

    private String key() {
        return Integer.toUnsignedString(rnd.nextInt()) + "u";
    }

    private <T> T pick(List<T> l) {
        return l.get(rnd.nextInt(l.size()));
    }

    private List<String> sendModes() {
        List<String> m = new ArrayList<>();
        if (f.contains(Feature.P2P)) {
            m.add("MPI_Send");
            m.add("MPI_Ssend");
        }
        if (f.contains(Feature.NONBLOCKING)) {
            m.add("MPI_Isend");
            m.add("MPI_Issend");
        }
        if (m.isEmpty()) {
            m.add("MPI_Send");
        }
        return m;
    }

    private List<String> nbSendModes() {
        return List.of("MPI_Isend", "MPI_Issend");
    }

    private boolean blockingRecvAllowed() {
        return f.contains(Feature.P2P) || !f.contains(Feature.NONBLOCKING);
    }

    private static final List<String> FAMILIES = List.of("wait", "waitall", "waitany", "waitsome", "test", "testall",
            "testany", "testsome");

    /** Code completing requests {@code rq[0..k)} into {@code st[]} with one member of the Wait or Test family. */
    private String complete(int k, String family) {
        if (k == 0) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        switch (family) {
            case "wait" -> {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    order.add(i);
                }
                Collections.shuffle(order, rnd);
                for (int i : order) {
                    b.append("MPI_Wait(&rq[").append(i).append("], &st[").append(i).append("]);\n");
                }
            }
            case "waitall" -> b.append("MPI_Waitall(").append(k).append(", rq, st);\n");
            case "waitany" -> b.append("for (int d = 0; d < ").append(k).append("; d++) {\n")
                    .append("    int ix; MPI_Status s;\n")
                    .append("    MPI_Waitany(").append(k).append(", rq, &ix, &s);\n")
                    .append("    if (ix == MPI_UNDEFINED) die(\"MPI_Waitany found no active request\");\n")
                    .append("    st[ix] = s;\n}\n");
            case "waitsome" -> b.append("for (int done = 0; done < ").append(k).append(";) {\n")
                    .append("    int oc, ix[").append(k).append("]; MPI_Status ss[").append(k).append("];\n")
                    .append("    MPI_Waitsome(").append(k).append(", rq, &oc, ix, ss);\n")
                    .append("    if (oc == MPI_UNDEFINED) die(\"MPI_Waitsome found no active request\");\n")
                    .append("    for (int j = 0; j < oc; j++) st[ix[j]] = ss[j];\n")
                    .append("    done += oc;\n}\n");
            case "test" -> {
                for (int i = 0; i < k; i++) {
                    b.append("for (int fl = 0; !fl;) MPI_Test(&rq[").append(i).append("], &fl, &st[").append(i)
                            .append("]);\n");
                }
            }
            case "testall" -> b.append("for (int fl = 0; !fl;) MPI_Testall(").append(k).append(", rq, &fl, st);\n");
            case "testany" -> b.append("for (int done = 0; done < ").append(k).append(";) {\n")
                    .append("    int ix, fl; MPI_Status s;\n")
                    .append("    MPI_Testany(").append(k).append(", rq, &ix, &fl, &s);\n")
                    .append("    if (fl) {\n")
                    .append("        if (ix == MPI_UNDEFINED) die(\"MPI_Testany found no active request\");\n")
                    .append("        st[ix] = s;\n        done++;\n    }\n}\n");
            case "testsome" -> b.append("for (int done = 0; done < ").append(k).append(";) {\n")
                    .append("    int oc, ix[").append(k).append("]; MPI_Status ss[").append(k).append("];\n")
                    .append("    MPI_Testsome(").append(k).append(", rq, &oc, ix, ss);\n")
                    .append("    if (oc == MPI_UNDEFINED) die(\"MPI_Testsome found no active request\");\n")
                    .append("    for (int j = 0; j < oc; j++) st[ix[j]] = ss[j];\n")
                    .append("    done += oc;\n}\n");
            default -> throw new IllegalStateException(family);
        }
        return b.toString();
    }

    /** Code allocating {@code var} to hold {@code n} bytes, sometimes through a smaller block grown by realloc. */
    private String alloc(String var, int n) {
        if (n > 1 && f.contains(Feature.CHURN) && rnd.nextInt(3) == 0) {
            return "unsigned char *" + var + " = regrow(xmalloc(" + (1 + rnd.nextInt(n)) + "), " + n + ");\n";
        }
        return "unsigned char *" + var + " = xmalloc(" + n + ");\n";
    }

    // ------------------------------------------------------------------ point-to-point

    private static final class Msg {
        int src;
        int dst;
        int tag;
        int len;
        int recvLen;
        String key;
        String smode;
        String rmode;
        int seq;
    }

    /** Random messages among a group's comm ranks, several tags per pair, each envelope once. */
    private List<Msg> messages(int n, int max) {
        int count = 1 + rnd.nextInt(Math.min(max, 2 * n));
        int base = tags(10);
        Map<Long, Set<Integer>> used = new LinkedHashMap<>();
        List<Msg> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Msg m = new Msg();
            m.src = rnd.nextInt(n);
            m.dst = (m.src + 1 + rnd.nextInt(n - 1)) % n;
            Set<Integer> t = used.computeIfAbsent((long) m.src * 64 + m.dst, x -> new HashSet<>());
            if (t.size() >= 10) {
                continue;
            }
            int tag;
            do {
                tag = base + rnd.nextInt(10);
            } while (!t.add(tag));
            m.tag = tag;
            m.len = size(1);
            m.recvLen = m.len;
            m.key = key();
            out.add(m);
        }
        return out;
    }

    private void p2p(Comm c) {
        Fn fn = new Fn("point-to-point on " + c.how + ": " + (f.contains(Feature.NONBLOCKING)
                ? "nonblocking receives posted out of order, " : "") + "blocking operations in one global order");
        List<String> smodes = sendModes();
        boolean blockRecv = blockingRecvAllowed();
        boolean nbRecv = f.contains(Feature.NONBLOCKING);
        for (List<Integer> g : c.groups) {
            if (g.size() < 2) {
                continue;
            }
            List<Msg> ms = messages(g.size(), 8);
            List<Integer> seq = new ArrayList<>();
            for (int i = 0; i < ms.size(); i++) {
                seq.add(i);
            }
            Collections.shuffle(seq, rnd);
            for (int i = 0; i < ms.size(); i++) {
                Msg m = ms.get(i);
                m.seq = seq.get(i);
                m.smode = pick(smodes);
                m.rmode = nbRecv && (!blockRecv || rnd.nextBoolean()) ? "MPI_Irecv" : "MPI_Recv";
                if (rnd.nextInt(6) == 0) {
                    m.recvLen = m.len + 1 + rnd.nextInt(64);
                }
            }
            for (int cr = 0; cr < g.size(); cr++) {
                fn.rank(g.get(cr)).append(p2pRank(c, cr, ms));
            }
        }
        fn.close();
    }

    /** One rank's part of a point-to-point phase: post nonblocking, blocking in global order, complete, check. */
    private String p2pRank(Comm c, int cr, List<Msg> ms) {
        StringBuilder b = new StringBuilder();
        List<Integer> mine = new ArrayList<>();
        for (int i = 0; i < ms.size(); i++) {
            if (ms.get(i).src == cr || ms.get(i).dst == cr) {
                mine.add(i);
            }
        }
        if (mine.isEmpty()) {
            return "";
        }
        List<String> nb = new ArrayList<>();
        List<Integer> nbMsg = new ArrayList<>();
        List<Boolean> nbIsRecv = new ArrayList<>();
        List<Msg> blocking = new ArrayList<>();
        List<Boolean> blockingIsRecv = new ArrayList<>();
        for (int i : mine) {
            Msg m = ms.get(i);
            if (m.src == cr) {
                b.append(alloc("s" + i, m.len));
                b.append("fill(s").append(i).append(", ").append(m.len).append(", ").append(m.key).append(");\n");
                if (m.smode.startsWith("MPI_I")) {
                    nb.add(m.smode + "(s" + i + ", " + m.len + ", MPI_BYTE, " + m.dst + ", " + m.tag + ", " + c.var
                            + ", &rq[%d]);\n");
                    nbMsg.add(i);
                    nbIsRecv.add(false);
                } else {
                    blocking.add(m);
                    blockingIsRecv.add(false);
                }
            } else {
                b.append(alloc("r" + i, m.recvLen));
                if (m.rmode.equals("MPI_Irecv")) {
                    nb.add("MPI_Irecv(r" + i + ", " + m.recvLen + ", MPI_BYTE, " + m.src + ", " + m.tag + ", " + c.var
                            + ", &rq[%d]);\n");
                    nbMsg.add(i);
                    nbIsRecv.add(true);
                } else {
                    blocking.add(m);
                    blockingIsRecv.add(true);
                }
            }
        }
        int k = nb.size();
        if (k > 0) {
            b.append("MPI_Request rq[").append(k).append("]; MPI_Status st[").append(k).append("];\n");
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            order.add(i);
        }
        Collections.shuffle(order, rnd);
        for (int i : order) {
            b.append(String.format(Locale.ROOT, nb.get(i), i));
        }
        List<Integer> bo = new ArrayList<>();
        for (int i = 0; i < blocking.size(); i++) {
            bo.add(i);
        }
        bo.sort((x, y) -> Integer.compare(blocking.get(x).seq, blocking.get(y).seq));
        for (int i : bo) {
            Msg m = blocking.get(i);
            int idx = ms.indexOf(m);
            if (blockingIsRecv.get(i)) {
                b.append("{\n    MPI_Status s;\n    MPI_Recv(r").append(idx).append(", ").append(m.recvLen)
                        .append(", MPI_BYTE, ").append(m.src).append(", ").append(m.tag).append(", ").append(c.var)
                        .append(", &s);\n    expect_count(&s, ").append(m.len).append(");\n}\n");
            } else {
                b.append(m.smode).append("(s").append(idx).append(", ").append(m.len).append(", MPI_BYTE, ")
                        .append(m.dst).append(", ").append(m.tag).append(", ").append(c.var).append(");\n");
            }
        }
        b.append(complete(k, pick(FAMILIES)));
        for (int j = 0; j < k; j++) {
            if (nbIsRecv.get(j)) {
                b.append("expect_count(&st[").append(j).append("], ").append(ms.get(nbMsg.get(j)).len).append(");\n");
            }
        }
        for (int i : mine) {
            Msg m = ms.get(i);
            if (m.dst == cr) {
                b.append("check(r").append(i).append(", ").append(m.len).append(", ").append(m.key).append(", \"message ")
                        .append(i).append(" from ").append(m.src).append(" tag ").append(m.tag).append("\");\n");
                b.append("free(r").append(i).append(");\n");
            } else {
                b.append("free(s").append(i).append(");\n");
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ wildcards and probes

    private void receiversPhase(Comm c, boolean probe) {
        Fn fn = new Fn((probe ? "probes" : "wildcard receives") + " on " + c.how);
        boolean nb = f.contains(Feature.NONBLOCKING);
        for (List<Integer> g : c.groups) {
            int n = g.size();
            if (n < 2) {
                continue;
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                order.add(i);
            }
            Collections.shuffle(order, rnd);
            int nrecv = 1 + rnd.nextInt(n - 1);
            List<Integer> receivers = new ArrayList<>(order.subList(0, nrecv));
            List<Integer> senders = new ArrayList<>(order.subList(nrecv, n));
            int base = tags(8);
            List<Msg> all = new ArrayList<>();
            Map<Integer, String> style = new TreeMap<>();
            for (int d : receivers) {
                // a receiver that selects by source or tag while blocking may only get nonblocking sends
                List<String> styles = probe
                        ? List.of("probe", "iprobe", "mprobe", "improbe")
                        : List.of("anyany", "anysource", "anytag");
                String st = pick(styles);
                boolean blockingRecv = probe || !nb || (blockRecvAllowedHere() && rnd.nextBoolean());
                String sel = probe ? (nb && rnd.nextBoolean() ? "bysource" : "any") : st;
                boolean selective = !sel.equals("anyany") && !sel.equals("any");
                if (selective && blockingRecv && !nb) {
                    sel = probe ? "any" : "anyany";
                    selective = false;
                }
                style.put(d, (probe ? st + ":" + sel : sel) + ":" + (blockingRecv ? "blocking" : "irecv"));
                int count = 1 + rnd.nextInt(4);
                int len = size(count);
                Map<Integer, Integer> fromEach = new TreeMap<>();
                for (int i = 0; i < count; i++) {
                    Msg m = new Msg();
                    m.src = pick(senders);
                    m.dst = d;
                    int ord = fromEach.merge(m.src, 1, Integer::sum) - 1;
                    m.tag = base + ord;
                    m.len = probe ? size(1) : len;
                    m.recvLen = m.len;
                    m.key = key();
                    m.smode = selective && blockingRecv ? pick(nbSendModes()) : pick(sendModes());
                    all.add(m);
                }
            }
            for (int cr = 0; cr < n; cr++) {
                StringBuilder b = fn.rank(g.get(cr));
                if (style.containsKey(cr)) {
                    b.append(wildReceiver(c, cr, all, style.get(cr), probe));
                } else {
                    b.append(wildSender(c, cr, all));
                }
                // no later message may meet this phase's wildcards
                b.append("MPI_Barrier(").append(c.var).append(");\n");
            }
        }
        fn.close();
    }

    private boolean blockRecvAllowedHere() {
        return f.contains(Feature.P2P);
    }

    private String wildSender(Comm c, int cr, List<Msg> all) {
        StringBuilder b = new StringBuilder();
        List<Msg> mine = new ArrayList<>(all.stream().filter(m -> m.src == cr).toList());
        if (mine.isEmpty()) {
            return "";
        }
        Collections.shuffle(mine, rnd);
        List<Msg> nbs = mine.stream().filter(m -> m.smode.startsWith("MPI_I")).toList();
        for (int i = 0; i < mine.size(); i++) {
            Msg m = mine.get(i);
            b.append(alloc("s" + i, m.len));
            b.append("fill(s").append(i).append(", ").append(m.len).append(", ").append(m.key).append(");\n");
        }
        if (!nbs.isEmpty()) {
            b.append("MPI_Request rq[").append(nbs.size()).append("]; MPI_Status st[").append(nbs.size()).append("];\n");
        }
        int r = 0;
        for (int i = 0; i < mine.size(); i++) {
            Msg m = mine.get(i);
            if (m.smode.startsWith("MPI_I")) {
                b.append(m.smode).append("(s").append(i).append(", ").append(m.len).append(", MPI_BYTE, ").append(m.dst)
                        .append(", ").append(m.tag).append(", ").append(c.var).append(", &rq[").append(r++).append("]);\n");
            }
        }
        for (int i = 0; i < mine.size(); i++) {
            Msg m = mine.get(i);
            if (!m.smode.startsWith("MPI_I")) {
                b.append(m.smode).append("(s").append(i).append(", ").append(m.len).append(", MPI_BYTE, ").append(m.dst)
                        .append(", ").append(m.tag).append(", ").append(c.var).append(");\n");
            }
        }
        b.append(complete(nbs.size(), pick(FAMILIES)));
        for (int i = 0; i < mine.size(); i++) {
            b.append("free(s").append(i).append(");\n");
        }
        return b.toString();
    }

    /** A receiver of a wildcard or probe phase: every message it gets is looked up by its status's source and tag. */
    private String wildReceiver(Comm c, int cr, List<Msg> all, String style, boolean probe) {
        List<Msg> mine = new ArrayList<>(all.stream().filter(m -> m.dst == cr).toList());
        int k = mine.size();
        StringBuilder b = new StringBuilder();
        b.append("/* receiver: ").append(style).append(" */\n");
        b.append("static const int xs[] = {").append(join(mine, m -> m.src)).append("};\n");
        b.append("static const int xt[] = {").append(join(mine, m -> m.tag)).append("};\n");
        b.append("static const int xl[] = {").append(join(mine, m -> m.len)).append("};\n");
        b.append("static const unsigned xk[] = {").append(String.join(", ", mine.stream().map(m -> m.key).toList()))
                .append("};\n");
        b.append("int seen[").append(k).append("] = {0};\n");
        String[] parts = style.split(":");
        if (probe) {
            String how = parts[0];
            boolean bySource = parts[1].equals("bysource");
            // the source of each probe in turn when probing by source: every message of each sender
            List<Integer> srcOrder = new ArrayList<>(mine.stream().map(m -> m.src).toList());
            Collections.shuffle(srcOrder, rnd);
            if (bySource) {
                b.append("static const int ps[] = {").append(join(srcOrder, x -> x)).append("};\n");
            }
            b.append("for (int i = 0; i < ").append(k).append("; i++) {\n");
            b.append("    MPI_Status s; int n;\n");
            String src = bySource ? "ps[i]" : "MPI_ANY_SOURCE";
            switch (how) {
                case "probe" -> b.append("    MPI_Probe(").append(src).append(", MPI_ANY_TAG, ").append(c.var)
                        .append(", &s);\n");
                case "iprobe" -> b.append("    for (int fl = 0; !fl;) MPI_Iprobe(").append(src).append(", MPI_ANY_TAG, ")
                        .append(c.var).append(", &fl, &s);\n");
                case "mprobe" -> b.append("    MPI_Message mh;\n    MPI_Mprobe(").append(src).append(", MPI_ANY_TAG, ")
                        .append(c.var).append(", &mh, &s);\n");
                case "improbe" -> b.append("    MPI_Message mh;\n    for (int fl = 0; !fl;) MPI_Improbe(").append(src)
                        .append(", MPI_ANY_TAG, ").append(c.var).append(", &fl, &mh, &s);\n");
                default -> throw new IllegalStateException(how);
            }
            b.append("    MPI_Get_count(&s, MPI_BYTE, &n);\n");
            b.append("    int j = lookup(xs, xt, ").append(k).append(", seen, &s);\n");
            b.append("    if (n != xl[j]) die(\"probed count is not the message's\");\n");
            b.append("    unsigned char *p = xmalloc(n);\n");
            if (how.endsWith("mprobe")) {
                b.append("    MPI_Mrecv(p, n, MPI_BYTE, &mh, &s);\n");
            } else {
                b.append("    MPI_Recv(p, n, MPI_BYTE, s.MPI_SOURCE, s.MPI_TAG, ").append(c.var).append(", &s);\n");
            }
            b.append("    expect_count(&s, n);\n    check(p, n, xk[j], \"probed message\");\n    free(p);\n}\n");
            return b.toString();
        }
        String sel = parts[0];
        boolean blocking = parts[1].equals("blocking");
        int len = k == 0 ? 0 : mine.getFirst().len;
        // the selector of each receive: any-any, by tag group (any source), or by source (any tag)
        List<String> srcSel = new ArrayList<>();
        List<String> tagSel = new ArrayList<>();
        for (Msg m : mine) {
            srcSel.add(sel.equals("anytag") ? String.valueOf(m.src) : "MPI_ANY_SOURCE");
            tagSel.add(sel.equals("anysource") ? String.valueOf(m.tag) : "MPI_ANY_TAG");
        }
        List<Integer> ord = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            ord.add(i);
        }
        Collections.shuffle(ord, rnd);
        b.append("unsigned char *rb[").append(k).append("];\n");
        b.append("MPI_Status st[").append(k).append("];\n");
        for (int i = 0; i < k; i++) {
            b.append("rb[").append(i).append("] = xmalloc(").append(len).append(");\n");
        }
        if (blocking) {
            for (int i = 0; i < k; i++) {
                int o = ord.get(i);
                b.append("MPI_Recv(rb[").append(i).append("], ").append(len).append(", MPI_BYTE, ").append(srcSel.get(o))
                        .append(", ").append(tagSel.get(o)).append(", ").append(c.var).append(", &st[").append(i)
                        .append("]);\n");
            }
        } else {
            b.append("MPI_Request rq[").append(k).append("];\n");
            for (int i = 0; i < k; i++) {
                int o = ord.get(i);
                b.append("MPI_Irecv(rb[").append(i).append("], ").append(len).append(", MPI_BYTE, ")
                        .append(srcSel.get(o)).append(", ").append(tagSel.get(o)).append(", ").append(c.var)
                        .append(", &rq[").append(i).append("]);\n");
            }
            b.append(complete(k, pick(FAMILIES)));
        }
        b.append("for (int i = 0; i < ").append(k).append("; i++) {\n");
        b.append("    int j = lookup(xs, xt, ").append(k).append(", seen, &st[i]);\n");
        b.append("    expect_count(&st[i], xl[j]);\n    check(rb[i], xl[j], xk[j], \"wildcard message\");\n");
        b.append("    free(rb[i]);\n}\n");
        return b.toString();
    }

    private static <T> String join(List<T> l, java.util.function.Function<T, Integer> fn) {
        StringBuilder b = new StringBuilder();
        for (T t : l) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(fn.apply(t));
        }
        return b.isEmpty() ? "0" : b.toString();
    }

    // ------------------------------------------------------------------ cancel, persistent, sendrecv, churn

    private void cancel(Comm c) {
        Fn fn = new Fn("cancelled receives on " + c.how);
        for (List<Integer> g : c.groups) {
            int n = g.size();
            for (int cr = 0; cr < n; cr++) {
                StringBuilder b = fn.rank(g.get(cr));
                if (rnd.nextInt(3) == 0 && n > 1) {
                    b.append("MPI_Barrier(").append(c.var).append(");\n");
                    continue;
                }
                String src = rnd.nextBoolean() || n == 1 ? "MPI_ANY_SOURCE" : String.valueOf(rnd.nextInt(n));
                int len = 1 + rnd.nextInt(256);
                int tag = NEVER_TAG + rnd.nextInt(700);
                b.append("unsigned char *cb = xmalloc(").append(len).append(");\n");
                b.append("MPI_Request rq; MPI_Status s; int fl;\n");
                b.append("MPI_Irecv(cb, ").append(len).append(", MPI_BYTE, ").append(src).append(", ").append(tag)
                        .append(", ").append(c.var).append(", &rq);\n");
                // the others run while the receive is pending
                b.append("MPI_Barrier(").append(c.var).append(");\n");
                if (rnd.nextBoolean()) {
                    b.append("MPI_Test(&rq, &fl, &s);\nif (fl) die(\"a receive nobody sends to completed\");\n");
                }
                b.append("MPI_Cancel(&rq);\n");
                b.append(rnd.nextBoolean() ? "MPI_Wait(&rq, &s);\n" : "for (fl = 0; !fl;) MPI_Test(&rq, &fl, &s);\n");
                b.append("MPI_Test_cancelled(&s, &fl);\nif (!fl) die(\"the receive was not cancelled\");\n");
                b.append("free(cb);\n");
            }
        }
        fn.close();
    }

    private void persistent(Comm c) {
        int rounds = 2 + rnd.nextInt(3);
        Fn fn = new Fn("persistent requests on " + c.how + ", " + rounds + " rounds");
        for (List<Integer> g : c.groups) {
            int n = g.size();
            if (n < 2) {
                continue;
            }
            List<Msg> ms = messages(n, 6);
            for (Msg m : ms) {
                budget -= (long) m.len * (rounds - 1);
                m.smode = rnd.nextInt(3) == 0 ? "MPI_Ssend_init" : "MPI_Send_init";
            }
            for (int cr = 0; cr < n; cr++) {
                StringBuilder b = fn.rank(g.get(cr));
                List<Integer> mine = new ArrayList<>();
                for (int i = 0; i < ms.size(); i++) {
                    if (ms.get(i).src == cr || ms.get(i).dst == cr) {
                        mine.add(i);
                    }
                }
                if (mine.isEmpty()) {
                    continue;
                }
                Collections.shuffle(mine, rnd);
                int k = mine.size();
                b.append("MPI_Request rq[").append(k).append("]; MPI_Status st[").append(k).append("];\n");
                b.append("unsigned char *pb[").append(k).append("];\n");
                for (int j = 0; j < k; j++) {
                    Msg m = ms.get(mine.get(j));
                    b.append("pb[").append(j).append("] = xmalloc(").append(m.len).append(");\n");
                    if (m.src == cr) {
                        b.append(m.smode).append("(pb[").append(j).append("], ").append(m.len).append(", MPI_BYTE, ")
                                .append(m.dst).append(", ").append(m.tag).append(", ").append(c.var).append(", &rq[")
                                .append(j).append("]);\n");
                    } else {
                        b.append("MPI_Recv_init(pb[").append(j).append("], ").append(m.len).append(", MPI_BYTE, ")
                                .append(m.src).append(", ").append(m.tag).append(", ").append(c.var).append(", &rq[")
                                .append(j).append("]);\n");
                    }
                }
                b.append("for (unsigned round = 0; round < ").append(rounds).append("; round++) {\n");
                StringBuilder body = new StringBuilder();
                for (int j = 0; j < k; j++) {
                    Msg m = ms.get(mine.get(j));
                    if (m.src == cr) {
                        body.append("fill(pb[").append(j).append("], ").append(m.len).append(", ").append(m.key)
                                .append(" + round);\n");
                    }
                }
                if (rnd.nextBoolean()) {
                    body.append("MPI_Startall(").append(k).append(", rq);\n");
                } else {
                    for (int j = 0; j < k; j++) {
                        body.append("MPI_Start(&rq[").append(j).append("]);\n");
                    }
                }
                body.append(complete(k, pick(FAMILIES)));
                for (int j = 0; j < k; j++) {
                    Msg m = ms.get(mine.get(j));
                    if (m.dst == cr) {
                        body.append("expect_count(&st[").append(j).append("], ").append(m.len).append(");\n");
                        body.append("check(pb[").append(j).append("], ").append(m.len).append(", ").append(m.key)
                                .append(" + round, \"persistent message\");\n");
                    }
                }
                b.append(indent(body.toString(), 1)).append("}\n");
                for (int j = 0; j < k; j++) {
                    b.append("MPI_Request_free(&rq[").append(j).append("]);\nfree(pb[").append(j).append("]);\n");
                }
            }
        }
        fn.close();
    }

    private void sendrecv(Comm c) {
        Fn fn = new Fn("Sendrecv shifts on " + c.how);
        for (int gi = 0; gi < c.groups.size(); gi++) {
            List<Integer> g = c.groups.get(gi);
            int n = g.size();
            if (n < 2) {
                continue;
            }
            int shift = 1 + rnd.nextInt(n - 1);
            int tag = tags(n);
            boolean replace = rnd.nextInt(3) == 0;
            int[] lens = new int[n];
            int same = size(n);
            for (int i = 0; i < n; i++) {
                lens[i] = replace ? same : size(1);
            }
            String k = key();
            StringBuilder b = new StringBuilder();
            b.append("static const int sl[] = {").append(joinInts(lens)).append("};\n");
            b.append("int to = (cr + ").append(shift).append(") % cn, from = (cr + cn - ").append(shift)
                    .append(") % cn;\nMPI_Status s;\n");
            if (replace) {
                b.append("unsigned char *p = xmalloc(sl[cr]);\nfill(p, sl[cr], ").append(k).append(" + cr);\n");
                b.append("MPI_Sendrecv_replace(p, sl[cr], MPI_BYTE, to, ").append(tag).append(" + cr, from, ").append(tag)
                        .append(" + from, cv, &s);\n");
                b.append("expect_count(&s, sl[from]);\ncheck(p, sl[from], ").append(k)
                        .append(" + from, \"Sendrecv_replace\");\nfree(p);\n");
            } else {
                b.append(allocExpr("p", "sl[cr]")).append(allocExpr("q", "sl[from]"));
                b.append("fill(p, sl[cr], ").append(k).append(" + cr);\n");
                b.append("MPI_Sendrecv(p, sl[cr], MPI_BYTE, to, ").append(tag).append(" + cr, q, sl[from], MPI_BYTE, from, ")
                        .append(tag).append(" + from, cv, &s);\n");
                b.append("expect_count(&s, sl[from]);\ncheck(q, sl[from], ").append(k)
                        .append(" + from, \"Sendrecv\");\nfree(p);\nfree(q);\n");
            }
            fn.common.append(groupBlock(c, gi, b.toString()));
        }
        fn.close();
    }

    private static String allocExpr(String var, String n) {
        return "unsigned char *" + var + " = xmalloc(" + n + ");\n";
    }

    private void churn(Comm c) {
        Fn fn = new Fn("buffers freed, reallocated and reused between messages on " + c.how);
        boolean nb = f.contains(Feature.NONBLOCKING) && !f.contains(Feature.P2P);
        for (List<Integer> g : c.groups) {
            int n = g.size();
            if (n < 2) {
                continue;
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                order.add(i);
            }
            Collections.shuffle(order, rnd);
            int tag = tags(1);
            for (int p = 0; p + 1 < n; p += 2) {
                int a = order.get(p);
                int z = order.get(p + 1);
                int rounds = 2 + rnd.nextInt(4);
                StringBuilder ba = fn.rank(g.get(a));
                StringBuilder bz = fn.rank(g.get(z));
                ba.append("unsigned char *p = NULL;\n");
                bz.append("unsigned char *q = NULL;\n");
                for (int r = 0; r < rounds; r++) {
                    int len = size(2);
                    String k = key();
                    String k2 = key();
                    ba.append(churnStep("p", len));
                    bz.append(churnStep("q", len));
                    if (rnd.nextInt(3) == 0) {
                        // a large block taken and given back: an mmap and munmap in glibc
                        int big = 131072 + rnd.nextInt(1 << 20);
                        ba.append("{ unsigned char *t = xmalloc(").append(big).append("); t[0] = 1; free(t); }\n");
                    }
                    ba.append("fill(p, ").append(len).append(", ").append(k).append(");\n");
                    ba.append(sendStmt(nb, "p", len, z, tag, c.var));
                    bz.append(recvStmt(nb, "q", len, a, tag, c.var));
                    bz.append("check(q, ").append(len).append(", ").append(k).append(", \"churned ping\");\n");
                    bz.append("fill(q, ").append(len).append(", ").append(k2).append(");\n");
                    bz.append(sendStmt(nb, "q", len, a, tag, c.var));
                    ba.append(recvStmt(nb, "p", len, z, tag, c.var));
                    ba.append("check(p, ").append(len).append(", ").append(k2).append(", \"churned pong\");\n");
                }
                ba.append("free(p);\n");
                bz.append("free(q);\n");
            }
        }
        fn.close();
    }

    /** Makes {@code var} hold {@code len} bytes: a new block, a realloc, or a free then a malloc of the same size. */
    private String churnStep(String var, int len) {
        return switch (rnd.nextInt(3)) {
            case 0 -> var + " = regrow(" + var + ", " + len + ");\n";
            case 1 -> "free(" + var + ");\n" + var + " = xmalloc(" + len + ");\n";
            default -> "free(" + var + ");\n{ unsigned char *t = xmalloc(" + len + "); free(t); }\n" + var + " = xmalloc("
                    + len + ");\n";
        };
    }

    private static String sendStmt(boolean nb, String buf, int len, int to, int tag, String comm) {
        if (nb) {
            return "{ MPI_Request r; MPI_Isend(" + buf + ", " + len + ", MPI_BYTE, " + to + ", " + tag + ", " + comm
                    + ", &r); MPI_Wait(&r, MPI_STATUS_IGNORE); }\n";
        }
        return "MPI_Send(" + buf + ", " + len + ", MPI_BYTE, " + to + ", " + tag + ", " + comm + ");\n";
    }

    private static String recvStmt(boolean nb, String buf, int len, int from, int tag, String comm) {
        if (nb) {
            return "{ MPI_Request r; MPI_Status s; MPI_Irecv(" + buf + ", " + len + ", MPI_BYTE, " + from + ", " + tag
                    + ", " + comm + ", &r); MPI_Wait(&r, &s); expect_count(&s, " + len + "); }\n";
        }
        return "{ MPI_Status s; MPI_Recv(" + buf + ", " + len + ", MPI_BYTE, " + from + ", " + tag + ", " + comm
                + ", &s); expect_count(&s, " + len + "); }\n";
    }

    // ------------------------------------------------------------------ collectives

    /** Code run by the members of group {@code gi} of {@code c}, with {@code cv}, {@code cr} and {@code cn} set. */
    private static String groupBlock(Comm c, int gi, String body) {
        StringBuilder b = new StringBuilder();
        b.append(c.world() ? "{\n" : "if (" + c.groupVar + " == " + gi + ") {\n");
        b.append("    MPI_Comm cv = ").append(c.var).append(";\n    int cr, cn;\n");
        b.append("    MPI_Comm_rank(cv, &cr);\n    MPI_Comm_size(cv, &cn);\n");
        b.append("    if (cn != ").append(c.groups.get(gi).size()).append(") die(\"communicator size\");\n");
        b.append(indent(body, 1)).append("}\n");
        return b.toString();
    }

    private static final List<String> PLAIN = List.of("barrier", "bcast", "reduce", "allreduce", "scan", "exscan",
            "allgather", "gather", "scatter", "alltoall", "reduce_scatter_block");
    private static final List<String> VECTOR = List.of("allgatherv", "gatherv", "scatterv", "alltoallv",
            "reduce_scatter");
    private static final String[] OPS = {"MPI_SUM", "MPI_MAX", "MPI_MIN"};

    private void collectives(Comm c, boolean vector) {
        int count = 1 + rnd.nextInt(4);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(pick(vector ? VECTOR : PLAIN));
        }
        Fn fn = new Fn(String.join(", ", names) + " on " + c.how);
        for (int gi = 0; gi < c.groups.size(); gi++) {
            int n = c.groups.get(gi).size();
            StringBuilder b = new StringBuilder();
            for (String name : names) {
                b.append("{ /* ").append(name).append(" */\n").append(indent(collective(name, n), 1)).append("}\n");
            }
            fn.common.append(groupBlock(c, gi, b.toString()));
        }
        fn.close();
    }

    /** Elements of ints for a reduction of about a log-uniform size. */
    private int ints(int copies) {
        int s = size(copies);
        return s / 4 == 0 && s > 0 ? 1 : s / 4;
    }

    private String collective(String name, int n) {
        StringBuilder b = new StringBuilder();
        String k = key();
        int root = rnd.nextInt(n);
        int opi = rnd.nextInt(3);
        String op = OPS[opi];
        switch (name) {
            case "barrier" -> b.append("MPI_Barrier(cv);\n");
            case "bcast" -> {
                int len = size(n);
                b.append("unsigned char *p = xmalloc(").append(len).append(");\n");
                b.append("if (cr == ").append(root).append(") fill(p, ").append(len).append(", ").append(k).append(");\n");
                b.append("MPI_Bcast(p, ").append(len).append(", MPI_BYTE, ").append(root).append(", cv);\n");
                b.append("check(p, ").append(len).append(", ").append(k).append(", \"bcast\");\nfree(p);\n");
            }
            case "reduce" -> {
                int m = ints(n);
                boolean inPlace = rnd.nextBoolean();
                b.append("int *s = xmalloc(").append(m).append(" * sizeof(int)), *r = cr == ").append(root)
                        .append(" ? xmalloc(").append(m).append(" * sizeof(int)) : NULL;\n");
                b.append("fill_int(s, ").append(m).append(", ").append(k).append(", cr);\n");
                if (inPlace) {
                    b.append("if (cr == ").append(root).append(") {\n    for (int i = 0; i < ").append(m)
                            .append("; i++) r[i] = s[i];\n    MPI_Reduce(MPI_IN_PLACE, r, ").append(m).append(", MPI_INT, ")
                            .append(op).append(", ").append(root).append(", cv);\n} else {\n    MPI_Reduce(s, NULL, ")
                            .append(m).append(", MPI_INT, ").append(op).append(", ").append(root).append(", cv);\n}\n");
                } else {
                    b.append("MPI_Reduce(s, r, ").append(m).append(", MPI_INT, ").append(op).append(", ").append(root)
                            .append(", cv);\n");
                }
                b.append("if (cr == ").append(root).append(") check_red(r, ").append(m).append(", ").append(k)
                        .append(", 0, ").append(opi).append(", 0, cn);\nfree(s);\nfree(r);\n");
            }
            case "allreduce" -> {
                int m = ints(2 * n);
                if (rnd.nextInt(4) == 0) {
                    // doubles holding small integers sum exactly in any order
                    b.append("double *s = xmalloc(").append(m).append(" * sizeof(double)), *r = xmalloc(").append(m)
                            .append(" * sizeof(double));\n");
                    b.append("for (int i = 0; i < ").append(m).append("; i++) s[i] = ival(").append(k)
                            .append(", cr, i);\n");
                    b.append("MPI_Allreduce(s, r, ").append(m).append(", MPI_DOUBLE, MPI_SUM, cv);\n");
                    b.append("for (int i = 0; i < ").append(m).append("; i++) {\n    double e = 0;\n")
                            .append("    for (int q = 0; q < cn; q++) e += ival(").append(k).append(", q, i);\n")
                            .append("    if (r[i] != e) die(\"allreduce of doubles\");\n}\nfree(s);\nfree(r);\n");
                } else if (rnd.nextBoolean()) {
                    b.append("int *r = xmalloc(").append(m).append(" * sizeof(int));\n");
                    b.append("fill_int(r, ").append(m).append(", ").append(k).append(", cr);\n");
                    b.append("MPI_Allreduce(MPI_IN_PLACE, r, ").append(m).append(", MPI_INT, ").append(op).append(", cv);\n");
                    b.append("check_red(r, ").append(m).append(", ").append(k).append(", 0, ").append(opi)
                            .append(", 0, cn);\nfree(r);\n");
                } else {
                    b.append("int *s = xmalloc(").append(m).append(" * sizeof(int)), *r = xmalloc(").append(m)
                            .append(" * sizeof(int));\n");
                    b.append("fill_int(s, ").append(m).append(", ").append(k).append(", cr);\n");
                    b.append("MPI_Allreduce(s, r, ").append(m).append(", MPI_INT, ").append(op).append(", cv);\n");
                    b.append("check_red(r, ").append(m).append(", ").append(k).append(", 0, ").append(opi)
                            .append(", 0, cn);\nfree(s);\nfree(r);\n");
                }
            }
            case "scan", "exscan" -> {
                int m = ints(2);
                boolean ex = name.equals("exscan");
                b.append("int *s = xmalloc(").append(m).append(" * sizeof(int)), *r = xmalloc(").append(m)
                        .append(" * sizeof(int));\n");
                b.append("fill_int(s, ").append(m).append(", ").append(k).append(", cr);\n");
                b.append(ex ? "MPI_Exscan" : "MPI_Scan").append("(s, r, ").append(m).append(", MPI_INT, ").append(op)
                        .append(", cv);\n");
                // rank 0's result of an exclusive scan is undefined
                b.append(ex ? "if (cr > 0) check_red(r, " + m + ", " + k + ", 0, " + opi + ", 0, cr);\n"
                        : "check_red(r, " + m + ", " + k + ", 0, " + opi + ", 0, cr + 1);\n");
                b.append("free(s);\nfree(r);\n");
            }
            case "allgather", "gather" -> {
                int len = size(n * n);
                boolean all = name.equals("allgather");
                b.append("unsigned char *s = xmalloc(").append(len).append(");\n");
                b.append("unsigned char *r = ").append(all ? "" : "cr == " + root + " ? ").append("xmalloc((size_t) ")
                        .append(len).append(" * cn)").append(all ? "" : " : NULL").append(";\n");
                b.append("fill(s, ").append(len).append(", ").append(k).append(" + cr);\n");
                if (all) {
                    b.append("MPI_Allgather(s, ").append(len).append(", MPI_BYTE, r, ").append(len)
                            .append(", MPI_BYTE, cv);\n");
                } else {
                    b.append("MPI_Gather(s, ").append(len).append(", MPI_BYTE, r, ").append(len).append(", MPI_BYTE, ")
                            .append(root).append(", cv);\n");
                }
                b.append(all ? "" : "if (cr == " + root + ")\n");
                b.append("for (int j = 0; j < cn; j++) check_at(r, (size_t) j * ").append(len).append(", ").append(len)
                        .append(", ").append(k).append(" + j, \"").append(name).append(" block\");\n");
                b.append("free(s);\nfree(r);\n");
            }
            case "scatter" -> {
                int len = size(n);
                b.append("unsigned char *s = cr == ").append(root).append(" ? xmalloc((size_t) ").append(len)
                        .append(" * cn) : NULL, *r = xmalloc(").append(len).append(");\n");
                b.append("if (cr == ").append(root).append(") for (int j = 0; j < cn; j++) fill_at(s, (size_t) j * ")
                        .append(len).append(", ").append(len).append(", ").append(k).append(" + j);\n");
                b.append("MPI_Scatter(s, ").append(len).append(", MPI_BYTE, r, ").append(len).append(", MPI_BYTE, ")
                        .append(root).append(", cv);\n");
                b.append("check(r, ").append(len).append(", ").append(k).append(" + cr, \"scatter block\");\n");
                b.append("free(s);\nfree(r);\n");
            }
            case "alltoall" -> {
                int len = size(n * n);
                b.append("unsigned char *s = xmalloc((size_t) ").append(len).append(" * cn), *r = xmalloc((size_t) ")
                        .append(len).append(" * cn);\n");
                b.append("for (int j = 0; j < cn; j++) fill_at(s, (size_t) j * ").append(len).append(", ").append(len)
                        .append(", ").append(k).append(" + cr * 64u + j);\n");
                b.append("MPI_Alltoall(s, ").append(len).append(", MPI_BYTE, r, ").append(len)
                        .append(", MPI_BYTE, cv);\n");
                b.append("for (int j = 0; j < cn; j++) check_at(r, (size_t) j * ").append(len).append(", ").append(len)
                        .append(", ").append(k).append(" + j * 64u + cr, \"alltoall block\");\n");
                b.append("free(s);\nfree(r);\n");
            }
            case "reduce_scatter_block" -> {
                int m = ints(2 * n);
                b.append("int *s = xmalloc((size_t) ").append(m).append(" * cn * sizeof(int)), *r = xmalloc(")
                        .append(m).append(" * sizeof(int));\n");
                b.append("fill_int(s, (size_t) ").append(m).append(" * cn, ").append(k).append(", cr);\n");
                b.append("MPI_Reduce_scatter_block(s, r, ").append(m).append(", MPI_INT, ").append(op).append(", cv);\n");
                b.append("check_red(r, ").append(m).append(", ").append(k).append(", (size_t) cr * ").append(m)
                        .append(", ").append(opi).append(", 0, cn);\nfree(s);\nfree(r);\n");
            }
            case "reduce_scatter" -> {
                int[] counts = new int[n];
                for (int i = 0; i < n; i++) {
                    counts[i] = rnd.nextInt(4) == 0 ? 0 : ints(2 * n);
                }
                b.append("static const int rc[] = {").append(joinInts(counts)).append("};\n");
                b.append("size_t tot = 0, off = 0;\nfor (int j = 0; j < cn; j++) { if (j < cr) off += rc[j]; tot += rc[j]; }\n");
                b.append("int *s = xmalloc(tot * sizeof(int)), *r = xmalloc(rc[cr] * sizeof(int));\n");
                b.append("fill_int(s, tot, ").append(k).append(", cr);\n");
                b.append("MPI_Reduce_scatter(s, r, rc, MPI_INT, ").append(op).append(", cv);\n");
                b.append("check_red(r, rc[cr], ").append(k).append(", off, ").append(opi).append(", 0, cn);\n");
                b.append("free(s);\nfree(r);\n");
            }
            case "allgatherv", "gatherv" -> {
                boolean all = name.equals("allgatherv");
                int[] counts = vcounts(n, all ? n : 1);
                int gap = rnd.nextInt(3) == 0 ? rnd.nextInt(17) : 0;
                b.append("static const int vc[] = {").append(joinInts(counts)).append("};\n");
                b.append("int dp[").append(n).append("]; size_t tot = 0;\n");
                b.append("for (int j = 0; j < cn; j++) { dp[j] = (int) tot; tot += vc[j] + ").append(gap).append("; }\n");
                b.append("unsigned char *s = xmalloc(vc[cr]);\nfill(s, vc[cr], ").append(k).append(" + cr);\n");
                String rootOnly = all ? "" : "cr == " + root + " ? ";
                b.append("unsigned char *r = ").append(rootOnly).append("xmalloc(tot)").append(all ? "" : " : NULL")
                        .append(";\n");
                if (all) {
                    b.append("MPI_Allgatherv(s, vc[cr], MPI_BYTE, r, vc, dp, MPI_BYTE, cv);\n");
                } else {
                    b.append("MPI_Gatherv(s, vc[cr], MPI_BYTE, r, vc, dp, MPI_BYTE, ").append(root).append(", cv);\n");
                }
                b.append(all ? "" : "if (cr == " + root + ")\n");
                b.append("for (int j = 0; j < cn; j++) check_at(r, dp[j], vc[j], ").append(k).append(" + j, \"")
                        .append(name).append(" block\");\n");
                b.append("free(s);\nfree(r);\n");
            }
            case "scatterv" -> {
                int[] counts = vcounts(n, 1);
                b.append("static const int vc[] = {").append(joinInts(counts)).append("};\n");
                b.append("int dp[").append(n).append("]; size_t tot = 0;\n");
                // displacements in reverse order: the blocks need not follow the ranks
                b.append("for (int j = cn - 1; j >= 0; j--) { dp[j] = (int) tot; tot += vc[j]; }\n");
                b.append("unsigned char *s = cr == ").append(root).append(" ? xmalloc(tot) : NULL;\n");
                b.append("if (cr == ").append(root).append(") for (int j = 0; j < cn; j++) fill_at(s, dp[j], vc[j], ")
                        .append(k).append(" + j);\n");
                b.append("unsigned char *r = xmalloc(vc[cr]);\n");
                b.append("MPI_Scatterv(s, vc, dp, MPI_BYTE, r, vc[cr], MPI_BYTE, ").append(root).append(", cv);\n");
                b.append("check(r, vc[cr], ").append(k).append(" + cr, \"scatterv block\");\nfree(s);\nfree(r);\n");
            }
            case "alltoallv" -> {
                int[] flat = new int[n * n];
                for (int i = 0; i < n * n; i++) {
                    flat[i] = rnd.nextInt(4) == 0 ? 0 : size(n);
                }
                b.append("static const int am[] = {").append(joinInts(flat)).append("};\n");
                b.append("int sc[").append(n).append("], sd[").append(n).append("], rc[").append(n).append("], rd[")
                        .append(n).append("];\nsize_t st_ = 0, rt_ = 0;\n");
                b.append("for (int j = 0; j < cn; j++) {\n")
                        .append("    sc[j] = am[cr * cn + j]; sd[j] = (int) st_; st_ += sc[j];\n")
                        .append("    rc[j] = am[j * cn + cr]; rd[j] = (int) rt_; rt_ += rc[j];\n}\n");
                b.append("unsigned char *s = xmalloc(st_), *r = xmalloc(rt_);\n");
                b.append("for (int j = 0; j < cn; j++) fill_at(s, sd[j], sc[j], ").append(k).append(" + cr * 64u + j);\n");
                b.append("MPI_Alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, cv);\n");
                b.append("for (int j = 0; j < cn; j++) check_at(r, rd[j], rc[j], ").append(k)
                        .append(" + j * 64u + cr, \"alltoallv block\");\nfree(s);\nfree(r);\n");
            }
            default -> throw new IllegalStateException(name);
        }
        return b.toString();
    }

    private int[] vcounts(int n, int copies) {
        int[] c = new int[n];
        for (int i = 0; i < n; i++) {
            c[i] = rnd.nextInt(5) == 0 ? 0 : size(copies);
        }
        return c;
    }

    private static String joinInts(int[] a) {
        if (a.length == 0) {
            return "0";
        }
        StringBuilder b = new StringBuilder();
        for (int x : a) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(x);
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ communicators

    private void commPhase() {
        List<String> sub = phaseKinds(false);
        commNo++;
        String var = "comm_" + commNo;
        String gvar = "grp_" + commNo;
        globals.append("static MPI_Comm ").append(var).append(" = MPI_COMM_NULL;\n");
        globals.append("static int ").append(gvar).append(" = -1;\n");
        int[] group = new int[ranks];
        int[] crank = new int[ranks];
        Arrays.fill(group, -1);
        Arrays.fill(crank, -1);
        List<List<Integer>> groups = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        String how;
        boolean cart = false;
        int kind = rnd.nextInt(4);
        switch (kind) {
            case 0 -> {
                how = "a duplicate of MPI_COMM_WORLD";
                List<Integer> all = new ArrayList<>();
                for (int i = 0; i < ranks; i++) {
                    all.add(i);
                }
                groups.add(all);
                b.append("MPI_Comm_dup(MPI_COMM_WORLD, &").append(var).append(");\n");
            }
            case 1 -> {
                int colors = 1 + rnd.nextInt(Math.min(3, ranks));
                int[] color = new int[ranks];
                int[] key = new int[ranks];
                for (int i = 0; i < ranks; i++) {
                    color[i] = rnd.nextInt(8) == 0 ? -1 : rnd.nextInt(colors);
                    key[i] = rnd.nextInt(5);
                }
                for (int col = 0; col < colors; col++) {
                    List<Integer> mem = new ArrayList<>();
                    for (int i = 0; i < ranks; i++) {
                        if (color[i] == col) {
                            mem.add(i);
                        }
                    }
                    // the new communicator orders its members by key, then by their rank in the parent
                    mem.sort((x, y) -> key[x] != key[y] ? Integer.compare(key[x], key[y]) : Integer.compare(x, y));
                    if (!mem.isEmpty()) {
                        groups.add(mem);
                    }
                }
                how = "MPI_Comm_split into " + groups.size() + " group" + (groups.size() == 1 ? "" : "s");
                int[] colorC = new int[ranks];
                for (int i = 0; i < ranks; i++) {
                    colorC[i] = color[i];
                }
                b.append("static const int color[] = {").append(joinInts(colorC)).append("};\n");
                b.append("static const int key[] = {").append(joinInts(key)).append("};\n");
                b.append("MPI_Comm_split(MPI_COMM_WORLD, color[rank] < 0 ? MPI_UNDEFINED : color[rank], key[rank], &")
                        .append(var).append(");\n");
            }
            case 2 -> {
                List<Integer> all = new ArrayList<>();
                for (int i = 0; i < ranks; i++) {
                    all.add(i);
                }
                Collections.shuffle(all, rnd);
                List<Integer> mem = new ArrayList<>(all.subList(0, 2 + rnd.nextInt(ranks - 1)));
                groups.add(mem);
                how = "MPI_Comm_create of " + mem.size() + " ranks";
                int[] in = mem.stream().mapToInt(Integer::intValue).toArray();
                b.append("MPI_Group wg, ng;\nstatic const int in[] = {").append(joinInts(in)).append("};\n");
                b.append("MPI_Comm_group(MPI_COMM_WORLD, &wg);\nMPI_Group_incl(wg, ").append(in.length)
                        .append(", in, &ng);\nMPI_Comm_create(MPI_COMM_WORLD, ng, &").append(var).append(");\n");
                b.append("MPI_Group_free(&ng);\nMPI_Group_free(&wg);\n");
            }
            default -> {
                cart = true;
                int nd = ranks >= 4 && rnd.nextBoolean() ? 2 : 1;
                int d0;
                int d1 = 1;
                if (nd == 2) {
                    d0 = 2;
                    d1 = 2 + rnd.nextInt(ranks / 2 - 1);
                } else {
                    d0 = 2 + rnd.nextInt(ranks - 1);
                }
                int members = d0 * d1;
                List<Integer> mem = new ArrayList<>();
                for (int i = 0; i < members; i++) {
                    mem.add(i);
                }
                groups.add(mem);
                int p0 = rnd.nextInt(2);
                int p1 = rnd.nextInt(2);
                how = "MPI_Cart_create " + (nd == 2 ? d0 + "x" + d1 : String.valueOf(d0)) + " periodic " + p0
                        + (nd == 2 ? "," + p1 : "");
                b.append("int dims[2] = {").append(d0).append(", ").append(d1).append("}, per[2] = {").append(p0)
                        .append(", ").append(p1).append("};\n");
                // no reordering: the members keep their world ranks, which the generator relies on
                b.append("MPI_Cart_create(MPI_COMM_WORLD, ").append(nd).append(", dims, per, 0, &").append(var)
                        .append(");\n");
            }
        }
        for (int gi = 0; gi < groups.size(); gi++) {
            List<Integer> g = groups.get(gi);
            for (int i = 0; i < g.size(); i++) {
                group[g.get(i)] = gi;
                crank[g.get(i)] = i;
            }
        }
        b.append("static const int gof[] = {").append(joinInts(group)).append("};\n");
        b.append("static const int rof[] = {").append(joinInts(crank)).append("};\n");
        b.append(gvar).append(" = gof[rank];\n");
        b.append("if ((").append(var).append(" == MPI_COMM_NULL) != (rof[rank] < 0)) die(\"membership of the new communicator\");\n");
        b.append("if (").append(var).append(" != MPI_COMM_NULL) {\n    int r;\n    MPI_Comm_rank(").append(var)
                .append(", &r);\n    if (r != rof[rank]) die(\"rank in the new communicator\");\n}\n");
        Fn make = new Fn("make " + var + ": " + how);
        make.common.append(b);
        make.close();
        Comm c = new Comm(var, gvar, groups, var);
        if (cart) {
            cartExchange(c);
        }
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            phaseOn(pick(sub), c);
        }
        Fn free = new Fn("free " + var);
        free.common.append("if (").append(var).append(" != MPI_COMM_NULL) MPI_Comm_free(&").append(var).append(");\n");
        free.close();
    }

    /** Every member exchanges with its neighbours along each dimension, MPI_PROC_NULL at open edges. */
    private void cartExchange(Comm c) {
        Fn fn = new Fn("neighbour exchange over " + c.var + " with MPI_Cart_shift and MPI_Sendrecv");
        int n = c.groups.getFirst().size();
        int[] lens = new int[n];
        for (int i = 0; i < n; i++) {
            lens[i] = size(2);
        }
        String k = key();
        int tag = tags(1);
        StringBuilder b = new StringBuilder();
        b.append("static const int sl[] = {").append(joinInts(lens)).append("};\nint nd;\n");
        b.append("MPI_Cartdim_get(cv, &nd);\n");
        b.append("for (int d = 0; d < nd; d++) {\n");
        b.append("    for (int dir = -1; dir <= 1; dir += 2) {\n");
        b.append("        int from, to;\n        MPI_Cart_shift(cv, d, dir, &from, &to);\n");
        b.append("        int rn = from == MPI_PROC_NULL ? 0 : sl[from];\n");
        b.append("        unsigned char *p = xmalloc(sl[cr]), *q = xmalloc(rn);\n");
        b.append("        fill(p, sl[cr], ").append(k).append(" + cr * 8u + d * 2u + (dir > 0));\n");
        b.append("        MPI_Status s;\n");
        b.append("        MPI_Sendrecv(p, sl[cr], MPI_BYTE, to, ").append(tag).append(", q, rn, MPI_BYTE, from, ")
                .append(tag).append(", cv, &s);\n");
        b.append("        if (from != MPI_PROC_NULL) {\n            expect_count(&s, rn);\n            check(q, rn, ")
                .append(k).append(" + from * 8u + d * 2u + (dir > 0), \"neighbour\");\n        }\n");
        b.append("        free(p);\n        free(q);\n    }\n}\n");
        fn.common.append(groupBlock(c, 0, b.toString()));
        fn.close();
    }

    // ------------------------------------------------------------------ the program

    private static final String PRELUDE = """
            #include <mpi.h>
            #include <stdint.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>

            static int rank, size, phase;

            static void die(const char *what) {
                fprintf(stderr, "rank %d, phase %d: %s\\n", rank, phase, what);
                MPI_Abort(MPI_COMM_WORLD, 3);
                exit(3);
            }

            /* NULL for zero bytes: a zero-count message names no buffer */
            static void *xmalloc(size_t n) {
                if (n == 0) return NULL;
                void *p = malloc(n);
                if (!p) die("out of memory");
                return p;
            }

            static void *regrow(void *p, size_t n) {
                if (n == 0) {
                    free(p);
                    return NULL;
                }
                p = realloc(p, n);
                if (!p) die("out of memory");
                return p;
            }

            /* each message's bytes depend on its key, so a message delivered to the wrong buffer shows */
            static unsigned char pat(uint32_t key, size_t i) {
                uint32_t x = (key + 1u) * 2654435761u;
                x ^= (uint32_t) i * 40503u + (uint32_t) (i >> 13) * 97u;
                x ^= x >> 15;
                x *= 0x2c1b3c6du;
                x ^= x >> 12;
                return (unsigned char) x;
            }

            static void fill(void *b, size_t n, uint32_t key) {
                unsigned char *p = b;
                for (size_t i = 0; i < n; i++) p[i] = pat(key, i);
            }

            /* at an offset into b, which is NULL when the whole buffer is empty */
            static void fill_at(void *b, size_t off, size_t n, uint32_t key) {
                if (n) fill((unsigned char *) b + off, n, key);
            }

            static void check(const void *b, size_t n, uint32_t key, const char *what) {
                const unsigned char *p = b;
                for (size_t i = 0; i < n; i++) {
                    if (p[i] != pat(key, i)) {
                        char m[200];
                        snprintf(m, sizeof m, "%s: byte %zu of %zu is wrong", what, i, n);
                        die(m);
                    }
                }
            }

            static void check_at(const void *b, size_t off, size_t n, uint32_t key, const char *what) {
                if (n) check((const unsigned char *) b + off, n, key, what);
            }

            static void expect_count(const MPI_Status *s, int n) {
                int c;
                MPI_Get_count(s, MPI_BYTE, &c);
                if (c != n) {
                    char m[200];
                    snprintf(m, sizeof m, "received %d bytes, expected %d", c, n);
                    die(m);
                }
            }

            /* small values, so that sums over 8 ranks cannot overflow */
            static int ival(uint32_t key, int r, size_t i) {
                return (int) ((key % 997u + (uint32_t) i * 7u + (uint32_t) r * 13u) % 1000u);
            }

            static void fill_int(int *b, size_t n, uint32_t key, int r) {
                for (size_t i = 0; i < n; i++) b[i] = ival(key, r, i);
            }

            /* op 0 sum, 1 max, 2 min of the values of ranks lo..hi-1 at indices off.. */
            static void check_red(const int *b, size_t n, uint32_t key, size_t off, int op, int lo, int hi) {
                for (size_t i = 0; i < n; i++) {
                    int e = op == 0 ? 0 : ival(key, lo, off + i);
                    for (int r = lo; r < hi; r++) {
                        int v = ival(key, r, off + i);
                        e = op == 0 ? e + v : op == 1 ? (v > e ? v : e) : (v < e ? v : e);
                    }
                    if (b[i] != e) {
                        char m[200];
                        snprintf(m, sizeof m, "reduction element %zu is %d, expected %d", i, b[i], e);
                        die(m);
                    }
                }
            }

            /* the expected message a status names, each at most once */
            static int lookup(const int *src, const int *tag, int n, int *seen, const MPI_Status *s) {
                for (int j = 0; j < n; j++) {
                    if (src[j] == s->MPI_SOURCE && tag[j] == s->MPI_TAG && !seen[j]) {
                        seen[j] = 1;
                        return j;
                    }
                }
                char m[200];
                snprintf(m, sizeof m, "unexpected message from %d with tag %d", s->MPI_SOURCE, s->MPI_TAG);
                die(m);
                return -1;
            }

            """;

    private String source(long seed) {
        StringBuilder b = new StringBuilder();
        b.append("/*\n * Generated by MpiProgramGenerator from seed ").append(seed).append(" with ").append(f)
                .append(".\n * Run on ").append(ranks).append(" ranks; exits non-zero if any received byte is wrong.\n *\n");
        for (String s : summary) {
            b.append(" * phase ").append(s).append('\n');
        }
        b.append(" */\n");
        b.append(PRELUDE);
        b.append(globals);
        if (!globals.isEmpty()) {
            b.append('\n');
        }
        b.append(functions);
        b.append("int main(int argc, char **argv) {\n    MPI_Init(&argc, &argv);\n");
        b.append("    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    MPI_Comm_size(MPI_COMM_WORLD, &size);\n");
        b.append("    if (size != ").append(ranks).append(") die(\"run me on ").append(ranks).append(" ranks\");\n");
        for (String c : calls) {
            b.append("    ").append(c).append("();\n");
        }
        b.append("    MPI_Finalize();\n    return 0;\n}\n");
        return b.toString();
    }
}
