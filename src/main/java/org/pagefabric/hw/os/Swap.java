package org.pagefabric.hw.os;

import java.util.Arrays;
import org.pagefabric.hw.mem.PageImage;

/**
 * A swap device of a fixed number of 4 KiB slots. A slot holds a page's content and a count of
 * the page-table entries that refer to it (Linux's {@code swap_map}): after fork both processes'
 * entries name the same slot, which is freed when the last one is swapped in or unmapped.
 * Slots come from a LIFO stack of freed slots, then from a rising watermark, deterministically;
 * arrays grow on demand, so an unused device costs nothing.
 */
public final class Swap {
    private final long capacity;
    private PageImage[] content = new PageImage[0];
    private int[] refs = new int[0];
    private int[] free = new int[0];
    private int freeCount;
    private int watermark;
    private long used;

    /** A device of {@code slots} slots (0 means no swap: nothing can be reclaimed). */
    public Swap(long slots) {
        if (slots < 0 || slots > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("swap slots " + slots + " is not in 0.." + Integer.MAX_VALUE);
        }
        this.capacity = slots;
    }

    /** Capacity in slots. */
    public long capacity() {
        return capacity;
    }

    /** Slots in use. */
    public long used() {
        return used;
    }

    /** Stores a page with {@code refs} referring entries; returns the slot, or -1 if full. */
    long store(PageImage image, int references) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else if (watermark < capacity) {
            slot = watermark++;
            if (slot >= content.length) {
                int n = (int) Math.min(capacity, Math.max(64, (long) content.length * 2));
                content = Arrays.copyOf(content, n);
                refs = Arrays.copyOf(refs, n);
            }
        } else {
            return -1;
        }
        content[slot] = image;
        refs[slot] = references;
        used++;
        return slot;
    }

    /** Entries referring to a slot. */
    public int references(long slot) {
        return refs[(int) slot];
    }

    /** Adds an entry referring to a slot (fork copied a swap entry). */
    void duplicate(long slot) {
        check(slot);
        refs[(int) slot]++;
    }

    /**
     * The page of a slot for one referring entry that is being swapped in; the slot's count
     * drops, and the last reader takes the stored image itself rather than a copy.
     */
    PageImage take(long slot) {
        check(slot);
        int s = (int) slot;
        PageImage image = content[s];
        if (refs[s] > 1) {
            refs[s]--;
            return image.duplicate();
        }
        release(s);
        return image;
    }

    /** The page of a slot, without swapping it in (inspection only). */
    PageImage peek(long slot) {
        check(slot);
        return content[(int) slot];
    }

    /** Drops one referring entry (its mapping was unmapped while swapped out). */
    void drop(long slot) {
        check(slot);
        int s = (int) slot;
        if (--refs[s] == 0) {
            release(s);
        }
    }

    private void release(int s) {
        content[s] = null;
        refs[s] = 0;
        used--;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, Math.max(64, freeCount * 2));
        }
        free[freeCount++] = s;
    }

    private void check(long slot) {
        if (slot < 0 || slot >= watermark || refs[(int) slot] == 0) {
            throw new IllegalStateException("swap slot " + slot + " is not in use");
        }
    }

    /** Heap bytes held by the slot tables, roughly (page contents are counted with memory). */
    public long footprintBytes() {
        return 64 + 3 * 16 + 4L * content.length + 4L * refs.length + 4L * free.length;
    }
}
