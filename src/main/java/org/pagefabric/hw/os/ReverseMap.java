package org.pagefabric.hw.os;

import java.util.Arrays;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Which (address space, virtual page) map each frame: Linux's anon rmap, needed to unmap a page
 * from every process before reclaiming or migrating it. The common case, one mapping, is one long
 * per frame in lazily allocated chunks; frames shared after fork keep the others in a side table.
 * A 2 MiB page is recorded on its head frame with the 2 MiB-aligned address.
 *
 * <p>Mappings are kept in the order they were added, so walks are deterministic.
 */
final class ReverseMap {
    private static final int SHIFT = 12;
    private static final int SIZE = 1 << SHIFT;
    private static final int MASK = SIZE - 1;
    private static final int VPN_BITS = 35;

    private final long frames;
    private long[][] primary;
    /** Second and later mappings of shared frames; looked up by key only, never iterated. */
    private final Long2ObjectHashMap<long[]> extra = new Long2ObjectHashMap<>();

    ReverseMap(long frames) {
        this.frames = frames;
    }

    static long encode(int asId, long va) {
        return ((long) (asId + 1) << VPN_BITS) | (va >>> 12);
    }

    static int asId(long mapping) {
        return (int) (mapping >>> VPN_BITS) - 1;
    }

    static long va(long mapping) {
        return (mapping & ((1L << VPN_BITS) - 1)) << 12;
    }

    private long getPrimary(long frame) {
        if (primary == null) {
            return 0;
        }
        long[] c = primary[(int) (frame >>> SHIFT)];
        return c == null ? 0 : c[(int) (frame & MASK)];
    }

    private void setPrimary(long frame, long v) {
        if (primary == null) {
            primary = new long[(int) ((frames + MASK) >>> SHIFT)][];
        }
        int ci = (int) (frame >>> SHIFT);
        if (primary[ci] == null) {
            primary[ci] = new long[SIZE];
        }
        primary[ci][(int) (frame & MASK)] = v;
    }

    int count(long frame) {
        if (getPrimary(frame) == 0) {
            return 0;
        }
        long[] x = extra.get(frame);
        return 1 + (x == null ? 0 : (int) x[0]);
    }

    /** The {@code i}-th mapping of the frame (encoded; see {@link #asId} and {@link #va}). */
    long get(long frame, int i) {
        return i == 0 ? getPrimary(frame) : extra.get(frame)[i];
    }

    void add(long frame, int asId, long va) {
        long m = encode(asId, va);
        if (getPrimary(frame) == 0) {
            setPrimary(frame, m);
            return;
        }
        long[] x = extra.get(frame);
        if (x == null) {
            x = new long[4];
        } else if (x[0] + 1 == x.length) {
            x = Arrays.copyOf(x, x.length * 2);
        }
        x[(int) ++x[0]] = m;
        extra.put(frame, x);
    }

    void remove(long frame, int asId, long va) {
        long m = encode(asId, va);
        long[] x = extra.get(frame);
        int n = x == null ? 0 : (int) x[0];
        if (getPrimary(frame) == m) {
            if (n == 0) {
                setPrimary(frame, 0);
                return;
            }
            setPrimary(frame, x[1]);
            removeAt(frame, x, 1, n);
            return;
        }
        for (int i = 1; i <= n; i++) {
            if (x[i] == m) {
                removeAt(frame, x, i, n);
                return;
            }
        }
        throw new IllegalStateException("frame " + frame + " has no mapping from address space " + asId
                + " at " + Long.toHexString(va));
    }

    private void removeAt(long frame, long[] x, int i, int n) {
        System.arraycopy(x, i + 1, x, i, n - i);
        x[n] = 0;
        x[0] = n - 1;
        if (n == 1) {
            extra.remove(frame);
        }
    }

    /** Moves every mapping of frame {@code from} to frame {@code to} (page migration). */
    void moveAll(long from, long to) {
        if (getPrimary(from) == 0) {
            return;
        }
        setPrimary(to, getPrimary(from));
        setPrimary(from, 0);
        long[] x = extra.remove(from);
        if (x != null) {
            extra.put(to, x);
        }
    }

    long footprintBytes() {
        long bytes = 48 + extra.size() * 96L;
        if (primary != null) {
            bytes += 16 + 4L * primary.length;
            for (long[] c : primary) {
                if (c != null) {
                    bytes += 16 + 8L * SIZE;
                }
            }
        }
        return bytes;
    }
}
