package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.PacketPool;
import org.pagefabric.sim.RandomStream;

/**
 * The payload words of a datagram against the byte-by-byte layout they stand for: word k
 * occupies bytes 8k..8k+7, least significant byte first, on seeded random words and counts.
 */
class DatagramWordsTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void wordsAreLittleEndianBytesAndReadBack(long seed) {
        RandomStream rnd = new RandomStream(seed);
        PacketPool pool = new PacketPool(1, 4096);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + rnd.nextInt(512);
            long[] src = new long[n + 8];
            for (int k = 0; k < src.length; k++) {
                src[k] = rnd.nextInt(4) == 0 ? -rnd.nextLong(256) : rnd.nextLong();
            }
            int from = rnd.nextInt(8);
            Packet p = pool.acquire();
            DatagramRmaUnit.pack(p, src, from, n);
            assertEquals(true, p.hasBytes);
            byte[] expected = new byte[8 * n];
            for (int k = 0; k < n; k++) {
                long v = src[from + k];
                for (int i = 0; i < 8; i++) {
                    expected[8 * k + i] = (byte) (v >>> (8 * i));
                }
            }
            assertArrayEquals(expected, java.util.Arrays.copyOf(p.bytes, 8 * n), "seed " + seed + " trial " + trial);
            for (int k = 0; k < n; k++) {
                long v = 0;
                for (int i = 7; i >= 0; i--) {
                    v = (v << 8) | (p.bytes[8 * k + i] & 0xFF);
                }
                assertEquals(v, DatagramRmaUnit.word(p, k));
                assertEquals(src[from + k], DatagramRmaUnit.word(p, k));
            }
            pool.release(p);
        }
    }
}
