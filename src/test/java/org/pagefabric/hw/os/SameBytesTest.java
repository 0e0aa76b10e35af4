package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Kernel#sameBytes} against the plain answer (peek both ranges, compare the bytes) over
 * ranges of mixed content: tag runs at shifted stream positions, literal bytes, zeros, pages
 * never touched, at offsets that straddle pages differently on the two sides, across two kernels.
 */
class SameBytesTest {
    private static final long PAGE = Kernel.PAGE_SIZE;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void agreesWithAByteComparisonOverRandomContent(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Kernel ka = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        Kernel kb = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace a = ka.createProcess(0, false);
        AddressSpace b = kb.createProcess(0, false);
        long va = ka.mmap(a, 0, 16 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        long vb = kb.mmap(b, 0, 16 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        int trues = 0;
        for (int round = 0; round < 200; round++) {
            long len = 1 + rnd.nextLong(6 * PAGE);
            long offA = rnd.nextLong(16 * PAGE - len);
            long offB = rnd.nextLong(16 * PAGE - len);
            long tag = 1 + rnd.nextInt(3);
            long pos = rnd.nextInt(1 << 16);
            int kind = rnd.nextInt(5);
            // the source: one tag run, or literal bytes, or a tag with a literal patch
            if (kind == 4) {
                ka.writeTag(a, va + offA, len, tag, pos);
                byte[] patch = new byte[(int) Math.min(len, 100)];
                rnd.nextBytes(patch);
                ka.write(a, va + offA + rnd.nextLong(len - patch.length + 1), patch, 0, patch.length);
            } else if (kind == 3) {
                byte[] lit = new byte[(int) len];
                rnd.nextBytes(lit);
                ka.write(a, va + offA, lit, 0, lit.length);
            } else {
                ka.writeTag(a, va + offA, len, tag, pos);
            }
            // the destination: a faithful copy (as tag or as bytes), a copy off by one position,
            // a copy with one byte changed, or whatever it held
            byte[] src = new byte[(int) len];
            ka.peek(a, va + offA, src, 0, src.length);
            switch (rnd.nextInt(5)) {
                case 0 -> kb.write(b, vb + offB, src, 0, src.length);
                case 1 -> {
                    if (kind < 3) {
                        kb.writeTag(b, vb + offB, len, tag, pos);
                    }
                }
                case 2 -> kb.writeTag(b, vb + offB, len, tag, pos + 1);
                case 3 -> {
                    byte[] bad = src.clone();
                    bad[rnd.nextInt(bad.length)] ^= 1;
                    kb.write(b, vb + offB, bad, 0, bad.length);
                }
                default -> {
                }
            }
            byte[] dst = new byte[(int) len];
            kb.peek(b, vb + offB, dst, 0, dst.length);
            boolean expected = Arrays.equals(src, dst);
            assertEquals(expected, ka.sameBytes(a, va + offA, kb, b, vb + offB, len), "round " + round);
            assertEquals(expected, kb.sameBytes(b, vb + offB, ka, a, va + offA, len), "round " + round + ", reversed");
            trues += expected ? 1 : 0;
        }
        assertTrue(trues > 20 && trues < 180, "both answers should occur often, got " + trues + " equal of 200");
    }

    @Test
    void untouchedPagesEqualZerosAndDifferFromData() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        AddressSpace as = k.createProcess(0, false);
        long x = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        long y = k.mmap(as, 0, 4 * PAGE, Prot.READ_WRITE, MapFlags.NONE).address();
        k.write(as, y, new byte[(int) PAGE], 0, (int) PAGE);
        assertTrue(k.sameBytes(as, x, k, as, y, 4 * PAGE));
        k.writeTag(as, y + PAGE, 10, 5, 0);
        assertFalse(k.sameBytes(as, x, k, as, y, 4 * PAGE));
    }
}
