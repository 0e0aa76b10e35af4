package org.pagefabric.workload.trace;

import java.util.List;
import java.util.Locale;

/**
 * The operations a trace record names, as written in its {@code op} field, with the fields each
 * one needs besides {@code rank} and its time ({@code t} or {@code gap}).
 */
public enum TraceOp {
    /** A private anonymous mapping appeared at {@code addr}. */
    MMAP(true, "addr", "len"),
    /** {@code [addr, addr+len)} was unmapped. */
    MUNMAP(true, "addr", "len"),
    /** The mapping at {@code addr} of {@code len} bytes moved to {@code new_addr} with {@code new_len} bytes. */
    MREMAP(true, "addr", "len", "new_addr", "new_len"),
    /** madvise over {@code [addr, addr+len)} ({@code advice}: dontneed unless given). */
    MADVISE(true, "addr", "len"),
    /** The program break moved to {@code addr}. */
    BRK(true, "addr"),
    /** malloc of {@code len} bytes that returned {@code addr} when the trace was taken. */
    MALLOC(true, "addr", "len"),
    /** free of the block malloc returned at {@code addr}. */
    FREE(true, "addr"),
    /** fork: not replayable, refused when the trace is read. */
    FORK(true),
    /** The application registers {@code [addr, addr+len)} itself. */
    REGISTER(false, "addr", "len"),
    /** The application deregisters {@code [addr, addr+len)}. */
    DEREGISTER(false, "addr", "len"),
    /** RDMA write of {@code len} bytes from local {@code addr} to {@code peer}'s {@code raddr}. */
    PUT(false, "addr", "len", "peer", "raddr"),
    /** RDMA read of {@code len} bytes of {@code peer}'s {@code raddr} into local {@code addr}. */
    GET(false, "addr", "len", "peer", "raddr"),
    /** Two-sided send of {@code len} bytes at {@code addr} to {@code peer}. */
    SEND(false, "addr", "len", "peer"),
    /** Receive of up to {@code len} bytes at {@code addr} from {@code peer}. */
    RECV(false, "addr", "len", "peer"),
    /** Waits for the next completion of the rank's {@code queue} (send or recv). */
    WAIT(false, "queue"),
    /** An atomic operation: refused when the trace is read. */
    ATOMIC(false),
    /** The rank computes for {@code duration} nanoseconds. */
    COMPUTE(false, "duration"),
    /** An MPI collective ({@code coll}) over communicator {@code comm}; the replay expands it (version 2). */
    COLLECTIVE(false, "coll", "comm"),
    /** Communicator {@code comm} of world ranks {@code members} was created (version 2). */
    COMM(false, "comm", "members"),
    /** An MPI call that moves nothing on replay, counted as {@code call} (version 2). */
    MPI(false, "call");

    private final boolean memory;
    private final List<String> required;

    TraceOp(boolean memory, String... required) {
        this.memory = memory;
        this.required = List.of(required);
    }

    /** Whether the operation exists only in version 2 traces (recorded MPI programs). */
    public boolean mpiOnly() {
        return this == COLLECTIVE || this == COMM || this == MPI;
    }

    /** Whether the operation posts or reaps communication (put, get, send, receive, wait). */
    public boolean communicates() {
        return this == PUT || this == GET || this == SEND || this == RECV || this == WAIT;
    }

    /** The name as written in a trace. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the operation changes the address space (as opposed to communicating or computing). */
    public boolean memory() {
        return memory;
    }

    /** The fields a record of this operation must have, besides rank and time. */
    public List<String> required() {
        return required;
    }

    /** The operation called {@code name} in a trace, or {@code null}. */
    public static TraceOp byWireName(String name) {
        for (TraceOp op : values()) {
            if (op.wireName().equals(name)) {
                return op;
            }
        }
        return null;
    }

    /** Every name a trace may write, for error messages. */
    public static String wireNames() {
        StringBuilder b = new StringBuilder();
        for (TraceOp op : values()) {
            b.append(b.isEmpty() ? "" : ", ").append(op.wireName());
        }
        return b.toString();
    }
}
