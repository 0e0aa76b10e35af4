package org.pagefabric.workload.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;

/**
 * The address-space side of a real program, from {@code strace -f -tt -e trace=memory}: its
 * anonymous private mappings (what allocators use) and what later unmaps, moves or advises them,
 * and its program break. File-backed mappings (the program and its libraries) and mprotect are
 * left out; an unmap or madvise is clipped to the anonymous memory it touches. One process of
 * the log becomes the rank's address space (the one with the most memory calls, or the one
 * named), or every process and thread of it together; a process that executes a new program
 * (its break jumps to a new initial value) starts over. Times count from the first call imported.
 */
public final class StraceImport {
    /** {@code [PID ]HH:MM:SS.uuuuuu call(args) = result}, strace -o's and the terminal's pid prefixes. */
    private static final Pattern CALL = Pattern.compile(
            "^(?:\\[pid\\s+(\\d+)\\]\\s+|(\\d+)\\s+)?(\\d{2}):(\\d{2}):(\\d{2})\\.(\\d{6})\\s+(\\w+)\\((.*)\\)\\s+=\\s+(\\S+).*$");
    private static final Pattern UNFINISHED = Pattern.compile(
            "^(?:\\[pid\\s+(\\d+)\\]\\s+|(\\d+)\\s+)?(\\d{2}:\\d{2}:\\d{2}\\.\\d{6}\\s+\\w+\\(.*?)\\s*<unfinished \\.\\.\\.>$");
    private static final Pattern RESUMED = Pattern.compile(
            "^(?:\\[pid\\s+(\\d+)\\]\\s+|(\\d+)\\s+)?\\d{2}:\\d{2}:\\d{2}\\.\\d{6}\\s+<\\.\\.\\. \\w+ resumed>\\s*(.*)$");
    private static final long DAY_US = 24L * 3600 * 1_000_000;

    /**
     * What the importer adds after each mapping the program makes, so the memory it churns is
     * also memory it communicates from: {@code op} (put or get) of up to {@code len} bytes between
     * the mapping's start and {@code peer}'s {@code raddr}, then a wait for its completion;
     * {@code null} for no communication.
     */
    public record CommPattern(TraceOp op, int peer, long len, long raddr) {
    }

    /** One call of the log. */
    private record Call(String pid, int line, long us, String name, String args, String result) {
    }

    /** Every process of the log together, for a multithreaded program whose threads share one address space. */
    public static final long ALL_PIDS = -1;
    /** The process with the most memory calls. */
    public static final long BUSIEST_PID = -2;

    private final String file;
    private final int rank;
    private final CommPattern pattern;
    private final AddressMap anonymous = new AddressMap();
    private final List<TraceRecord> out = new ArrayList<>();
    private long firstUs = -1;
    private long lastBrk = -1;
    private int line;

    private StraceImport(String file, int rank, CommPattern pattern) {
        this.file = file;
        this.rank = rank;
        this.pattern = pattern;
    }

    /**
     * The records of a strace log, as rank {@code rank}'s, in the log's order.
     *
     * @param pattern the communication added after each mapping, or {@code null}
     * @throws TraceFormatException naming the log's file and line for a call it cannot read
     */
    public static List<TraceRecord> read(String file, Reader log, int rank, CommPattern pattern, long pid)
            throws IOException {
        return new StraceImport(file, rank, pattern).readAll(log, pid);
    }

    private List<TraceRecord> readAll(Reader log, long pid) throws IOException {
        List<Call> calls = calls(log);
        String chosen = pid == ALL_PIDS ? null : pid == BUSIEST_PID ? busiest(calls) : Long.toString(pid);
        for (Call c : calls) {
            if (chosen == null || chosen.equals(c.pid())) {
                line = c.line();
                call(c);
            }
        }
        return out;
    }

    private static String busiest(List<Call> calls) {
        Map<String, Integer> n = new HashMap<>();
        for (Call c : calls) {
            n.merge(c.pid(), 1, Integer::sum);
        }
        return n.entrySet().stream().max(Map.Entry.<String, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey).orElse("");
    }

    private List<Call> calls(Reader log) throws IOException {
        List<Call> calls = new ArrayList<>();
        BufferedReader in = new BufferedReader(log);
        Map<String, String> pending = new HashMap<>();
        String s;
        while ((s = in.readLine()) != null) {
            line++;
            Matcher u = UNFINISHED.matcher(s);
            if (u.matches()) {
                pending.put(pid(u.group(1), u.group(2)), u.group(3));
                continue;
            }
            Matcher r = RESUMED.matcher(s);
            if (r.matches()) {
                String p = pid(r.group(1), r.group(2));
                String start = pending.remove(p);
                if (start == null) {
                    continue;
                }
                s = (p.isEmpty() ? "" : p + " ") + start + r.group(3);
            }
            Matcher m = CALL.matcher(s);
            if (m.matches()) {
                long us = ((Long.parseLong(m.group(3)) * 60 + Long.parseLong(m.group(4))) * 60
                        + Long.parseLong(m.group(5))) * 1_000_000 + Long.parseLong(m.group(6));
                calls.add(new Call(pid(m.group(1), m.group(2)), line, us, m.group(7), m.group(8), m.group(9)));
            }
        }
        return calls;
    }

    private static String pid(String bracketed, String plain) {
        return bracketed != null ? bracketed : plain != null ? plain : "";
    }

    private void call(Call c) {
        long us = c.us();
        String name = c.name();
        String[] args = c.args().split(",\\s*");
        String result = c.result();
        if (result.startsWith("-") || result.equals("?")) {
            return; // a failed call changed nothing
        }
        if (firstUs < 0) {
            firstUs = us;
        }
        long rel = us - firstUs;
        if (rel < 0) {
            rel += DAY_US; // the log crossed midnight
        }
        long at = rel * 1_000_000; // microseconds to picoseconds
        switch (name) {
            case "mmap" -> {
                need(name, args, 6);
                if (!args[3].contains("MAP_ANONYMOUS") || !args[3].contains("MAP_PRIVATE")) {
                    return;
                }
                long addr = number(name, result);
                long len = number(name, args[1]);
                anonymous.map(addr, pageUp(len), addr);
                add(at, TraceOp.MMAP, addr, len, 0, 0, Advice.DONTNEED);
                communicate(at, addr, len);
            }
            case "munmap" -> {
                need(name, args, 2);
                long addr = number(name, args[0]);
                long len = pageUp(number(name, args[1]));
                for (long[] piece : anonymous.pieces(addr, len)) {
                    add(at, TraceOp.MUNMAP, piece[0], piece[1], 0, 0, Advice.DONTNEED);
                }
                anonymous.unmap(addr, len);
            }
            case "mremap" -> {
                need(name, args, 3);
                long addr = number(name, args[0]);
                long len = number(name, args[1]);
                long newLen = number(name, args[2]);
                long to = number(name, result);
                if (!anonymous.holds(addr, len)) {
                    return;
                }
                anonymous.unmap(addr, pageUp(len));
                anonymous.map(to, pageUp(newLen), to);
                add(at, TraceOp.MREMAP, addr, len, to, newLen, Advice.DONTNEED);
                communicate(at, to, newLen);
            }
            case "madvise" -> {
                need(name, args, 3);
                Advice advice = switch (args[2].strip()) {
                    case "MADV_DONTNEED", "MADV_FREE" -> Advice.DONTNEED;
                    case "MADV_HUGEPAGE" -> Advice.HUGEPAGE;
                    case "MADV_NOHUGEPAGE" -> Advice.NOHUGEPAGE;
                    default -> null;
                };
                if (advice == null) {
                    return; // advice that does not change what is mapped or resident
                }
                long addr = number(name, args[0]);
                for (long[] piece : anonymous.pieces(addr, pageUp(number(name, args[1])))) {
                    add(at, TraceOp.MADVISE, piece[0], piece[1], 0, 0, advice);
                }
            }
            case "brk" -> {
                long to = number(name, result);
                if (args[0].strip().equals("NULL") && lastBrk >= 0 && to != lastBrk) {
                    // a new initial break: the process executed another program, whose memory starts afresh
                    out.clear();
                    anonymous.clear();
                    lastBrk = -1;
                    firstUs = us;
                    at = 0;
                }
                long from = lastBrk < 0 ? to : lastBrk;
                lastBrk = to;
                add(at, TraceOp.BRK, to, 0, 0, 0, Advice.DONTNEED);
                if (pageUp(to) > pageUp(from)) {
                    communicate(at, pageUp(from), pageUp(to) - pageUp(from));
                }
            }
            default -> {
                // mprotect, mlock, shmat...: not part of what a trace replays
            }
        }
    }

    private void communicate(long at, long addr, long mapped) {
        if (pattern == null) {
            return;
        }
        long len = Math.min(pattern.len(), mapped);
        add(at, pattern.op(), addr, len, 0, 0, Advice.DONTNEED);
        out.set(out.size() - 1, with(out.get(out.size() - 1), pattern.peer(), pattern.raddr()));
        add(at, TraceOp.WAIT, 0, 0, 0, 0, Advice.DONTNEED);
    }

    private void add(long at, TraceOp op, long addr, long len, long newAddr, long newLen, Advice advice) {
        out.add(new TraceRecord(file, line, at, 0, rank, op, addr, len, newAddr, newLen, 0, 0, 0, true, advice,
                op == TraceOp.WAIT, TraceRecord.NONE));
    }

    private static TraceRecord with(TraceRecord r, int peer, long raddr) {
        return new TraceRecord(r.file(), r.line(), r.atPs(), r.gapPs(), r.rank(), r.op(), r.addr(), r.len(), r.newAddr(),
                r.newLen(), peer, raddr, r.durationPs(), r.hooked(), r.advice(), r.sendQueue(), r.pinnedBytes());
    }

    private void need(String name, String[] args, int n) {
        if (args.length < n) {
            throw new TraceFormatException(file, line, null, name + " with " + args.length + " arguments; strace"
                    + " prints " + n);
        }
    }

    private long number(String name, String s) {
        String v = s.strip();
        try {
            if (v.equals("NULL")) {
                return 0;
            }
            if (v.startsWith("0x")) {
                return Long.parseUnsignedLong(v.substring(2), 16);
            }
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(file, line, null, name + ": '" + v + "' is not a number or address");
        }
    }

    private static long pageUp(long n) {
        return (n + Kernel.PAGE_SIZE - 1) & -Kernel.PAGE_SIZE;
    }
}
