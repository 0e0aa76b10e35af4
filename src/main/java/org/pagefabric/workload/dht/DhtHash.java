package org.pagefabric.workload.dht;

/**
 * The hashtable's hash function, made invertible for the benchmark: an element is a 64-bit word
 * that carries the volume it belongs to (20 bits), its position in that volume's table (24 bits)
 * and a tag (20 bits, never 0, so an element is never the empty cell 0). The workload chooses
 * elements whose hash gives the collision ratio it wants, as 002 §5.2.1 varies R_cols; the
 * verification reads the owner and position back from every stored element.
 */
public final class DhtHash {
    /** Largest number of volumes (processes) an element can address. */
    public static final int MAX_VOLUMES = 1 << 20;
    /** Largest table a volume can have, in elements. */
    public static final long MAX_TABLE = 1L << 24;

    private DhtHash() {
    }

    /** The element for {@code owner}'s table position {@code pos} with tag bits from {@code tag}. */
    public static long element(int owner, long pos, long tag) {
        return (long) owner << 44 | pos << 20 | (tag & 0xFFFFFL) | 1L;
    }

    /** The volume (process) {@code elem} hashes to. */
    public static int owner(long elem) {
        return (int) (elem >>> 44);
    }

    /** The table position {@code elem} hashes to in its volume. */
    public static long position(long elem) {
        return (elem >>> 20) & (MAX_TABLE - 1);
    }
}
