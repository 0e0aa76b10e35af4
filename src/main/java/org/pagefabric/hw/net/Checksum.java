package org.pagefabric.hw.net;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.pagefabric.sim.RandomStream;

/**
 * The end-to-end packet checksum: a 64-bit mix of every header field and the payload (bytes
 * or content tag). It stands for the link and transport CRCs: any single flipped bit changes
 * it, and the model does not need CRC's burst properties.
 */
public final class Checksum {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Checksum() {
    }

    /**
     * Seals {@code p} as it stands: from now on {@link #intact} tells whether it is still so. The
     * value is computed only if the packet is about to be altered ({@link #settle}, called by
     * fault injection before it flips a bit); until then the packet is intact by construction,
     * so a fault-free run computes no checksum at all and every verdict is the one a checksum
     * computed at sealing would give.
     */
    public static void seal(Packet p) {
        p.checksumDeferred = true;
    }

    /**
     * Makes {@link Packet#checksum} hold the value sealed into {@code p}: computes it now for a
     * packet sealed by {@link #seal} and not altered since. Call before altering a sealed packet.
     */
    public static void settle(Packet p) {
        if (p.checksumDeferred) {
            p.checksum = of(p);
            p.checksumDeferred = false;
        }
    }

    /** Whether {@code p} is as it was sealed: unaltered since {@link #seal}, or matching its {@link Packet#checksum}. */
    public static boolean intact(Packet p) {
        return p.checksumDeferred || of(p) == p.checksum;
    }

    /** The checksum of {@code p} as it stands. */
    public static long of(Packet p) {
        long h = 0x243F6A8885A308D3L;
        h = step(h, ((long) p.kind.ordinal() << 8) | (p.reason == null ? 0xFF : p.reason.ordinal()));
        h = step(h, ((long) p.src << 32) | (p.dst & 0xFFFF_FFFFL));
        h = step(h, ((long) p.channel << 32) | (p.opcode & 0xFFFF_FFFFL));
        h = step(h, p.address);
        h = step(h, p.messageId);
        h = step(h, p.msn);
        h = step(h, p.messageLength);
        h = step(h, ((long) p.block << 32) | (p.blockCount & 0xFFFF_FFFFL));
        h = step(h, p.bsn);
        h = step(h, p.psn);
        h = step(h, ((long) p.packetInBlock << 32) | (p.blockPackets & 0xFFFF_FFFFL));
        h = step(h, ((long) p.attempt << 32) | (p.length & 0xFFFF_FFFFL));
        h = step(h, p.offset);
        h = step(h, p.cumulative ^ (p.blockComplete ? Long.MIN_VALUE : 0));
        if (p.hasBytes) {
            h = bytes(h, p.bytes, p.length);
        } else {
            h = step(h, p.contentTag);
            h = step(h, p.tagPosition);
        }
        return h;
    }

    private static long step(long h, long v) {
        return RandomStream.mix64(h ^ v);
    }

    private static long bytes(long h, byte[] b, int len) {
        int i = 0;
        // Two independent lanes: the multiplications of one overlap those of the other.
        long a = h;
        long c = ~h;
        for (; i + 16 <= len; i += 16) {
            a = (a ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
            a ^= a >>> 29;
            c = (c ^ (long) LONGS.get(b, i + 8)) * 0xC2B2AE3D27D4EB4FL;
            c ^= c >>> 31;
        }
        long tail = 0;
        int shift = 0;
        for (; i < len; i++, shift += 8) {
            if (shift == 64) {
                a = RandomStream.mix64(a ^ tail);
                tail = 0;
                shift = 0;
            }
            tail |= (b[i] & 0xFFL) << shift;
        }
        return RandomStream.mix64(a ^ RandomStream.mix64(c ^ tail ^ len));
    }
}
