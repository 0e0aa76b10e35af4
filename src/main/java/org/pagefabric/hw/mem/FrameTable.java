package org.pagefabric.hw.mem;

/**
 * Per-frame metadata, Linux's {@code struct page} reduced to what the model needs: how many page
 * table entries map the frame ({@code _mapcount}), how many get_user_pages references pin it
 * ({@code _pincount}), and flags. Allocated lazily in chunks of 4096 frames (36 KiB each), so a
 * node with a lot of RAM and nothing touched holds only one reference array.
 */
public final class FrameTable {
    /** The frame is allocated (not on a free list). */
    public static final int ALLOCATED = 1;
    /** The frame holds anonymous user memory (reclaimable to swap, subject to the rmap). */
    public static final int ANON = 1 << 1;
    /** First frame of a 2 MiB compound page. */
    public static final int HUGE_HEAD = 1 << 2;
    /** Any other frame of a 2 MiB compound page. */
    public static final int HUGE_TAIL = 1 << 3;
    /** Something wrote to the frame while it was free: a stale translation was used. */
    public static final int STRAY_WRITE = 1 << 4;
    /**
     * PG_locked: the kernel is in the middle of changing this page (copying it for a COW break,
     * migrating it); reclaim and migration leave it alone until the flag clears.
     */
    public static final int BUSY = 1 << 5;

    private static final int SHIFT = PageBacking.CHUNK_SHIFT;
    private static final int SIZE = 1 << SHIFT;
    private static final int MASK = SIZE - 1;

    private final long frames;
    private int[][] mapCount;
    private int[][] pinCount;
    private byte[][] flags;

    /** Metadata for {@code frames} frames. */
    public FrameTable(long frames) {
        if (frames <= 0 || frames > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("frame count " + frames + " is not in 1.." + Integer.MAX_VALUE);
        }
        this.frames = frames;
    }

    /** Number of frames. */
    public long frames() {
        return frames;
    }

    private void ensure(long frame) {
        if (frame < 0 || frame >= frames) {
            throw new IndexOutOfBoundsException("frame " + frame + " is not in 0.." + (frames - 1));
        }
        if (mapCount == null) {
            int n = (int) ((frames + MASK) >>> SHIFT);
            mapCount = new int[n][];
            pinCount = new int[n][];
            flags = new byte[n][];
        }
        int c = (int) (frame >>> SHIFT);
        if (mapCount[c] == null) {
            mapCount[c] = new int[SIZE];
            pinCount[c] = new int[SIZE];
            flags[c] = new byte[SIZE];
        }
    }

    private boolean absent(long frame) {
        if (frame < 0 || frame >= frames) {
            throw new IndexOutOfBoundsException("frame " + frame + " is not in 0.." + (frames - 1));
        }
        return mapCount == null || mapCount[(int) (frame >>> SHIFT)] == null;
    }

    /** Page-table entries mapping the frame. */
    public int mapCount(long frame) {
        return absent(frame) ? 0 : mapCount[(int) (frame >>> SHIFT)][(int) (frame & MASK)];
    }

    /** Pins (get_user_pages references) held on the frame. */
    public int pinCount(long frame) {
        return absent(frame) ? 0 : pinCount[(int) (frame >>> SHIFT)][(int) (frame & MASK)];
    }

    /** The flags. */
    public int flags(long frame) {
        return absent(frame) ? 0 : flags[(int) (frame >>> SHIFT)][(int) (frame & MASK)] & 0xff;
    }

    /** Whether all of {@code bits} are set. */
    public boolean has(long frame, int bits) {
        return (flags(frame) & bits) == bits;
    }

    /** Adds {@code delta} to the map count; returns the new count. */
    public int addMapCount(long frame, int delta) {
        ensure(frame);
        int[] a = mapCount[(int) (frame >>> SHIFT)];
        int i = (int) (frame & MASK);
        int v = a[i] + delta;
        if (v < 0) {
            throw new IllegalStateException("map count of frame " + frame + " would go negative");
        }
        a[i] = v;
        return v;
    }

    /** Adds {@code delta} to the pin count; returns the new count. */
    public int addPinCount(long frame, int delta) {
        ensure(frame);
        int[] a = pinCount[(int) (frame >>> SHIFT)];
        int i = (int) (frame & MASK);
        int v = a[i] + delta;
        if (v < 0) {
            throw new IllegalStateException("pin count of frame " + frame + " would go negative (put_page without get_user_pages)");
        }
        a[i] = v;
        return v;
    }

    /** Sets {@code bits}. */
    public void set(long frame, int bits) {
        ensure(frame);
        flags[(int) (frame >>> SHIFT)][(int) (frame & MASK)] |= (byte) bits;
    }

    /** Clears {@code bits}. */
    public void clear(long frame, int bits) {
        if (!absent(frame)) {
            flags[(int) (frame >>> SHIFT)][(int) (frame & MASK)] &= (byte) ~bits;
        }
    }

    /** Heap bytes held, roughly. */
    public long footprintBytes() {
        long bytes = 40;
        if (mapCount == null) {
            return bytes;
        }
        bytes += 3 * (16 + 4L * mapCount.length);
        for (int[] c : mapCount) {
            if (c != null) {
                bytes += 2 * (16 + 4L * SIZE) + 16 + SIZE;
            }
        }
        return bytes;
    }
}
