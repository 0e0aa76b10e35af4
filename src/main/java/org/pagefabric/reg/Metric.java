package org.pagefabric.reg;

/**
 * A quantity a registration policy can publish and a workload can read, by this typed key and
 * never by a string: {@link RegistrationPolicy#count} answers a {@link Kind#COUNT},
 * {@link RegistrationPolicy#mean} a {@link Kind#MEAN}, each for the policy's whole job. A policy
 * publishes the few that describe what it does and answers "not counted" for the rest.
 */
public enum Metric {
    /** Operations served without registration work (a pin-down cache hit, a Firehose hit). */
    HITS(Kind.COUNT, "operations", "operations served without registration work"),
    /** Operations that needed registration work first. */
    MISSES(Kind.COUNT, "operations", "operations that needed registration work first"),
    /** Firehose moves: active-message requests that remapped a remote firehose. */
    MOVES(Kind.COUNT, "moves", "remote mappings moved by an active-message handshake"),
    /** Remote operations that needed a handshake with their target before the data moved. */
    HANDSHAKES(Kind.COUNT, "operations", "remote operations that hand-shook with their target first"),
    /** Moves whose handler at the target had to unpin memory to make room (004 §4.4). */
    UNPIN_MOVES(Kind.COUNT, "moves", "moves whose handler had to unpin memory at the target"),
    /** Remote mappings a miss took away from memory they mapped, rather than free ones (Firehose victims). */
    DETACHES(Kind.COUNT, "mappings", "remote mappings a miss moved away from the memory they mapped"),
    /** Incoming data dropped because its page was not pinned yet when it arrived (Open-MX Overlap-Miss, 003 §4.3). */
    OVERLAP_MISSES(Kind.COUNT, "packets", "incoming data dropped because its target page was not pinned yet"),
    /** Packets the policy's own messaging stack received and accepted. */
    PACKETS_RECEIVED(Kind.COUNT, "packets", "packets the policy's messaging stack accepted"),
    /** Invalidations that reached a pin-down cache while another thread of the process was registering in it. */
    RACE_WINDOWS(Kind.COUNT, "unmaps", "invalidations that arrived while another thread was registering in the cache"),
    /** Invalidations of cached regions lost to a concurrent update of the cache (the regions stayed valid). */
    LOST_INVALIDATIONS(Kind.COUNT, "unmaps", "invalidations of cached regions lost to a concurrent update of the cache"),
    /** Per miss, the requester's time from finding the miss to the last move reply. */
    MOVE_TIME(Kind.MEAN, "us", "per miss: requester time from the miss to the last move reply"),
    /** Per move request, its round trip: the active messages and the handler at the target. */
    MOVE_ROUND_TRIP(Kind.MEAN, "us", "per move request: round trip of the request, handler included"),
    /** Per move request, the time the handler at the target took (unpins, pins, waits). */
    MOVE_HANDLER_TIME(Kind.MEAN, "us", "per move request: time in the handler at the target"),
    /** Per move request whose handler pinned nothing, the handler's time. */
    PINLESS_MOVE_HANDLER_TIME(Kind.MEAN, "us", "per move request that pinned nothing: time in the handler"),
    /** Per move request that pinned, its handler's time beyond a pinless move's, per unit of memory pinned. */
    PIN_DELAY(Kind.MEAN, "us", "per move request that pinned: handler time beyond its fixed work, per unit pinned"),
    /** Per miss, the requester's own bookkeeping. */
    MISS_BOOKKEEPING(Kind.MEAN, "us", "per miss: requester bookkeeping"),
    /** Per unit of memory unpinned, the time of deregistering and unpinning it. */
    UNPIN_TIME(Kind.MEAN, "us", "per unit unpinned: deregistration and unpinning"),
    /** Per rendezvous handshake, from the request leaving the sender to the receiver's answer acted on there. */
    HANDSHAKE_RTT(Kind.MEAN, "us", "per rendezvous handshake: from the request leaving to the answer acted on");

    /** How a metric is read. */
    public enum Kind {
        /** A number of events, read by {@link RegistrationPolicy#count}. */
        COUNT,
        /** A mean per event in microseconds, read by {@link RegistrationPolicy#mean}. */
        MEAN
    }

    private final Kind kind;
    private final String unit;
    private final String description;

    Metric(Kind kind, String unit, String description) {
        this.kind = kind;
        this.unit = unit;
        this.description = description;
    }

    /** Whether it is a count or a mean. */
    public Kind kind() {
        return kind;
    }

    /** Unit of the value. */
    public String unit() {
        return unit;
    }

    /** One line saying what is counted. */
    public String description() {
        return description;
    }
}
