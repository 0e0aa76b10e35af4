package org.pagefabric.reg.rendezvous;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an initiator knows of one target's registrations made for it: ranges and their remote
 * keys, so that a put into a range the target already pinned (and never unpins) needs no
 * handshake.
 */
final class RemoteKeyCache {
    /** A registered range of the target and its key. */
    private record Known(long start, long end, int rkey) {
    }

    /** Ranges by first byte; ranges that start on the same page share a list. */
    private final TreeMap<Long, List<Known>> byStart = new TreeMap<>();
    private long entries;

    /** The remote key of a registration covering {@code [va, va + length)}, or -1 if none is known. */
    long find(long va, long length) {
        Map.Entry<Long, List<Known>> floor = byStart.floorEntry(va);
        if (floor == null) {
            return -1;
        }
        for (Known k : floor.getValue()) {
            if (va >= k.start && va + length <= k.end) {
                return k.rkey & 0xFFFF_FFFFL;
            }
        }
        return -1;
    }

    /** Remembers that the target registered {@code [start, end)} under {@code rkey}. */
    void add(long start, long end, int rkey) {
        byStart.computeIfAbsent(start, k -> new ArrayList<>(1)).add(new Known(start, end, rkey));
        entries++;
    }

    /** Registrations remembered. */
    long entries() {
        return entries;
    }
}
