package org.pagefabric.hw.iommu.aa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The access log against a reference ring that lays every entry out at its logical place in
 * eagerly allocated arrays of the ring's full size: the log's storage grows with what is live,
 * and must behave exactly like the reference over any sequence of reservations, fills (in any
 * order, in pieces) and polls.
 */
class AccessLogTest {
    /** The ring as the log's contract describes it: slot = sequence mod slots, bytes at their ring offsets. */
    private static final class ReferenceLog {
        final int size;
        final int slots;
        final byte[] ring;
        final int[] kind;
        final long[] tag;
        final int[] length;
        final int[] dataOffset;
        final int[] footprint;
        final int[] missing;
        final boolean[] tagged;
        final long[] contentTag;
        final long[] tagPosition;
        long reserved;
        long committed;
        long consumed;
        int writeOffset;
        int usedBytes;
        long stalls;

        ReferenceLog(int size) {
            this.size = size;
            this.slots = size / AccessLog.HEADER_BYTES;
            ring = new byte[size];
            kind = new int[slots];
            tag = new long[slots];
            length = new int[slots];
            dataOffset = new int[slots];
            footprint = new int[slots];
            missing = new int[slots];
            tagged = new boolean[slots];
            contentTag = new long[slots];
            tagPosition = new long[slots];
        }

        int reserve(int k, long t, int len, int dataBytes) {
            int need = AccessLog.footprint(dataBytes);
            if (need > size - usedBytes || reserved - consumed >= slots) {
                stalls++;
                return -1;
            }
            int s = (int) (reserved % slots);
            kind[s] = k;
            tag[s] = t;
            length[s] = len;
            dataOffset[s] = (writeOffset + AccessLog.HEADER_BYTES) % size;
            footprint[s] = need;
            missing[s] = dataBytes;
            tagged[s] = false;
            contentTag[s] = 0;
            tagPosition[s] = 0;
            writeOffset = (writeOffset + need) % size;
            usedBytes += need;
            reserved++;
            advance();
            return s;
        }

        boolean fill(int s, int offset, byte[] src, int len) {
            for (int i = 0; i < len; i++) {
                ring[(dataOffset[s] + offset + i) % size] = src[i];
            }
            missing[s] -= len;
            advance();
            return missing[s] == 0;
        }

        boolean fillTagged(int s, int offset, long ct, long position, int len) {
            tagged[s] = true;
            contentTag[s] = ct;
            tagPosition[s] = position - offset;
            missing[s] -= len;
            advance();
            return missing[s] == 0;
        }

        void advance() {
            while (committed < reserved && missing[(int) (committed % slots)] == 0) {
                committed++;
            }
        }

        boolean poll(AccessRecord out) {
            if (consumed == committed) {
                return false;
            }
            int s = (int) (consumed % slots);
            out.kind = kind[s];
            out.tag = tag[s];
            out.length = length[s];
            out.sequence = consumed;
            out.tagged = tagged[s];
            out.contentTag = contentTag[s];
            out.tagPosition = tagPosition[s];
            int dataBytes = AccessKind.carriesData(kind[s]) ? length[s] : 0;
            out.dataLength = tagged[s] ? 0 : dataBytes;
            for (int i = 0; i < out.dataLength; i++) {
                out.data[i] = ring[(dataOffset[s] + i) % size];
            }
            usedBytes -= footprint[s];
            consumed++;
            return true;
        }
    }

    /** An entry reserved and not yet wholly filled: where the next piece goes. */
    private record Open(int slot, int length, int[] filledTo, boolean tagged) {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void behavesLikeTheFullSizeRingOverRandomSequences(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        // sizes that are not powers of two, and small enough that the ring wraps and refuses
        int size = AccessLog.HEADER_BYTES * (3 + rnd.nextInt(60)) + rnd.nextInt(AccessLog.HEADER_BYTES);
        AccessLog log = new AccessLog(7, 3, 0x10000, size);
        ReferenceLog ref = new ReferenceLog(size);
        List<Open> open = new ArrayList<>();
        AccessRecord got = new AccessRecord(256);
        AccessRecord want = new AccessRecord(256);
        for (int step = 0; step < 20_000; step++) {
            int op = rnd.nextInt(10);
            if (op < 4) {
                boolean withData = rnd.nextBoolean();
                int len = withData ? 1 + rnd.nextInt(Math.min(200, size / 2)) : 8;
                int k = withData ? AccessKind.PUT_DATA : AccessKind.PUT;
                long t = rnd.nextLong();
                int s = log.reserve(k, 1, t, 0x2000, len, withData ? len : 0);
                assertEquals(ref.reserve(k, t, len, withData ? len : 0), s, "slot at step " + step);
                if (s >= 0 && withData) {
                    open.add(new Open(s, len, new int[1], rnd.nextInt(4) == 0));
                }
            } else if (op < 8 && !open.isEmpty()) {
                // fill the next piece of a random open entry: entries complete out of order
                int which = rnd.nextInt(open.size());
                Open o = open.get(which);
                int piece = Math.min(o.length() - o.filledTo()[0], 1 + rnd.nextInt(64));
                boolean done;
                if (o.tagged()) {
                    long ct = rnd.nextLong();
                    long pos = rnd.nextInt(1 << 20);
                    done = log.fillTagged(o.slot(), o.filledTo()[0], ct, pos, piece);
                    assertEquals(ref.fillTagged(o.slot(), o.filledTo()[0], ct, pos, piece), done);
                } else {
                    byte[] bytes = new byte[piece];
                    rnd.nextBytes(bytes);
                    done = log.fill(o.slot(), o.filledTo()[0], bytes, 0, piece);
                    assertEquals(ref.fill(o.slot(), o.filledTo()[0], bytes, piece), done);
                }
                o.filledTo()[0] += piece;
                if (done) {
                    open.remove(which);
                }
            } else {
                boolean a = log.poll(got);
                assertEquals(ref.poll(want), a, "poll at step " + step);
                if (a) {
                    assertEquals(want.sequence, got.sequence);
                    assertEquals(want.kind, got.kind);
                    assertEquals(want.tag, got.tag);
                    assertEquals(want.length, got.length);
                    assertEquals(want.tagged, got.tagged);
                    assertEquals(want.contentTag, got.contentTag);
                    assertEquals(want.tagPosition, got.tagPosition);
                    assertEquals(want.dataLength, got.dataLength);
                    assertArrayEquals(Arrays.copyOf(want.data, want.dataLength), Arrays.copyOf(got.data, got.dataLength));
                }
            }
            assertEquals(ref.reserved, log.reserved());
            assertEquals(ref.committed, log.committed());
            assertEquals(ref.consumed, log.consumed());
            assertEquals(ref.usedBytes, log.usedBytes());
            assertEquals(ref.stalls, log.stalls());
        }
        assertTrue(ref.stalls > 0, "the sequence should have filled the ring at least once");
    }

    @Test
    void aFillThatDoesNotFitItsEntryIsRefused() {
        AccessLog log = new AccessLog(1, 1, 0, 1024);
        int s = log.reserve(AccessKind.PUT_DATA, 0, 0, 0, 16, 16);
        assertThrows(IllegalStateException.class, () -> log.fill(s, 8, new byte[16], 0, 16));
        assertFalse(log.fill(s, 0, new byte[8], 0, 8));
        assertTrue(log.fill(s, 8, new byte[8], 0, 8));
        assertEquals(1, log.committed());
    }
}
