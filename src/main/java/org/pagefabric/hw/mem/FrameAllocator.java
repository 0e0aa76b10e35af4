package org.pagefabric.hw.mem;

import java.util.Arrays;

/**
 * Hands out frame numbers: never-used frames from a rising watermark (so untouched memory needs
 * no free-list entries), freed 4 KiB frames from a LIFO stack, freed 2 MiB blocks from a stack of
 * aligned block heads. A 2 MiB block is split for small frames only when no small frame is free,
 * and split frames never merge back (there is no compaction): huge allocations can fail while
 * small ones succeed, the fragmentation that makes THP opportunistic on real kernels.
 * Deterministic: the same sequence of calls gives the same frames.
 */
final class FrameAllocator {
    static final int HUGE_FRAMES = 512;

    private final long capacity;
    private long watermark;
    private int[] small = new int[0];
    private int smallCount;
    private int[] huge = new int[0];
    private int hugeCount;

    FrameAllocator(long capacity) {
        this.capacity = capacity;
    }

    long free() {
        return smallCount + (long) hugeCount * HUGE_FRAMES + (capacity - watermark);
    }

    long watermark() {
        return watermark;
    }

    /** A free frame, or -1. */
    long allocate() {
        if (smallCount > 0) {
            return small[--smallCount];
        }
        if (watermark < capacity) {
            return watermark++;
        }
        if (hugeCount > 0) {
            int head = huge[--hugeCount];
            for (int i = HUGE_FRAMES - 1; i >= 1; i--) {
                pushSmall(head + i);
            }
            return head;
        }
        return -1;
    }

    /** The head of a free 2 MiB-aligned block of 512 frames, or -1. */
    long allocateHuge() {
        if (hugeCount > 0) {
            return huge[--hugeCount];
        }
        long aligned = (watermark + HUGE_FRAMES - 1) & ~(long) (HUGE_FRAMES - 1);
        if (aligned + HUGE_FRAMES > capacity) {
            return -1;
        }
        // the frames skipped to reach alignment stay usable as small frames
        for (long f = aligned - 1; f >= watermark; f--) {
            pushSmall((int) f);
        }
        watermark = aligned + HUGE_FRAMES;
        return aligned;
    }

    void release(long frame) {
        pushSmall((int) frame);
    }

    void releaseHuge(long head) {
        if (hugeCount == huge.length) {
            huge = Arrays.copyOf(huge, Math.max(16, huge.length * 2));
        }
        huge[hugeCount++] = (int) head;
    }

    private void pushSmall(int frame) {
        if (smallCount == small.length) {
            small = Arrays.copyOf(small, Math.max(64, small.length * 2));
        }
        small[smallCount++] = frame;
    }

    long footprintBytes() {
        return 48 + 16 + 4L * small.length + 16 + 4L * huge.length;
    }
}
