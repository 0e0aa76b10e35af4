package org.pagefabric.hw.iommu;

import java.util.Arrays;

/**
 * The recency order of each set of a wide LRU cache level: a doubly linked list of slots per
 * set, most recently used first, so a use and the choice of the least recently used way are
 * constant time instead of a scan of the set's ways.
 */
final class RecencyList {
    private static final int NONE = -1;
    private static final int UNLINKED = -2;

    private final int ways;
    private final int[] prev;
    private final int[] next;
    private final int[] head;
    private final int[] tail;

    /** Lists for {@code sets} sets of {@code ways} slots each ({@code slots = sets * ways}). */
    RecencyList(int slots, int sets, int ways) {
        this.ways = ways;
        prev = new int[slots];
        next = new int[slots];
        Arrays.fill(prev, UNLINKED);
        Arrays.fill(next, UNLINKED);
        head = new int[sets];
        tail = new int[sets];
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
    }

    /** Makes {@code slot} its set's most recently used (linking it if it is not listed). */
    void moveToFront(int slot) {
        int set = slot / ways;
        if (head[set] == slot) {
            return;
        }
        if (prev[slot] != UNLINKED) {
            unlink(slot);
        }
        prev[slot] = NONE;
        next[slot] = head[set];
        if (head[set] != NONE) {
            prev[head[set]] = slot;
        } else {
            tail[set] = slot;
        }
        head[set] = slot;
    }

    /** Takes {@code slot} out of its set's list (it no longer holds a key). */
    void unlink(int slot) {
        int set = slot / ways;
        int p = prev[slot];
        int n = next[slot];
        if (p == UNLINKED) {
            return;
        }
        if (p == NONE) {
            head[set] = n;
        } else {
            next[p] = n;
        }
        if (n == NONE) {
            tail[set] = p;
        } else {
            prev[n] = p;
        }
        prev[slot] = UNLINKED;
        next[slot] = UNLINKED;
    }

    /** The least recently used slot of {@code set}, or -1 if none is listed. */
    int leastRecent(int set) {
        return tail[set];
    }
}
