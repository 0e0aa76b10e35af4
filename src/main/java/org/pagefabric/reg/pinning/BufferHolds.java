package org.pagefabric.reg.pinning;

import java.util.ArrayDeque;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * What the operations in flight hold, found again by the buffer they named. A completion names
 * its buffer by address and length only, and completions of operations on one buffer come back
 * in the order the operations were posted, so each buffer keeps what its operations hold, oldest
 * first, and a completion takes the oldest.
 *
 * <p>A buffer's queue is kept when it empties: buffers are used again and again, and a buffer
 * seen before costs no allocation.
 *
 * @param <E> what an operation holds (a cached range, a registration)
 */
public final class BufferHolds<E> {
    /** The holds of one buffer; buffers at the same address with other lengths are chained. */
    private static final class Buffer<E> {
        final long length;
        final ArrayDeque<E> held = new ArrayDeque<>(2);
        Buffer<E> next;

        Buffer(long length) {
            this.length = length;
        }
    }

    private final Long2ObjectHashMap<Buffer<E>> byAddress = new Long2ObjectHashMap<>();
    private int holds;

    /** An operation on {@code [va, va + length)} holds {@code held} until its completion. */
    public void add(long va, long length, E held) {
        Buffer<E> b = byAddress.get(va);
        Buffer<E> last = null;
        while (b != null && b.length != length) {
            last = b;
            b = b.next;
        }
        if (b == null) {
            b = new Buffer<>(length);
            if (last == null) {
                byAddress.put(va, b);
            } else {
                last.next = b;
            }
        }
        b.held.addLast(held);
        holds++;
    }

    /** The oldest hold of an operation on {@code [va, va + length)}, now given up, or null if none holds it. */
    public E poll(long va, long length) {
        for (Buffer<E> b = byAddress.get(va); b != null; b = b.next) {
            if (b.length == length) {
                E e = b.held.pollFirst();
                if (e != null) {
                    holds--;
                }
                return e;
            }
        }
        return null;
    }

    /** Holds not given up yet, over every buffer. */
    public int size() {
        return holds;
    }
}
