package org.pagefabric.hw.stack;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The layout of the stack's IP and TCP/UDP header at the start of every frame buffer: the
 * fields the model reads, in {@link #SIZE} bytes, as large as an IPv4 plus TCP header. The
 * NIC carries the whole buffer as one datagram, so the header really travels and is read back
 * from the receiver's buffer.
 */
final class FrameHeader {
    /** Header bytes at the start of a frame (IPv4 20 B + TCP 20 B). */
    static final int SIZE = 40;
    static final byte TCP = 6;
    static final byte UDP = 17;
    /** An acknowledgement that only announces a larger window: not a duplicate acknowledgement. */
    static final byte WINDOW_UPDATE = 1;

    private static final int PROTO = 0;
    private static final int FLAGS = 1;
    private static final int PORT = 2;
    private static final int LENGTH = 4;
    private static final int SEQ = 8;
    private static final int ACK = 16;
    private static final int WINDOW = 24;
    private static final int FRAG_OFFSET = 28;
    private static final int TOTAL = 32;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private FrameHeader() {
    }

    /** Writes a TCP header: {@code seq} of the payload's first byte, cumulative {@code ack}, window in bytes. */
    static void tcp(byte[] h, int port, byte flags, int length, long seq, long ack, long window) {
        h[PROTO] = TCP;
        h[FLAGS] = flags;
        h[PORT] = (byte) (port >>> 8);
        h[PORT + 1] = (byte) port;
        INT.set(h, LENGTH, length);
        LONG.set(h, SEQ, seq);
        LONG.set(h, ACK, ack);
        INT.set(h, WINDOW, (int) Math.min(window, Integer.MAX_VALUE));
        INT.set(h, FRAG_OFFSET, 0);
        INT.set(h, TOTAL, length);
    }

    /** Writes a UDP header of fragment {@code offset} of datagram {@code id} (IP identification) of {@code total} bytes. */
    static void udp(byte[] h, int port, int length, long id, int offset, int total) {
        h[PROTO] = UDP;
        h[FLAGS] = 0;
        h[PORT] = (byte) (port >>> 8);
        h[PORT + 1] = (byte) port;
        INT.set(h, LENGTH, length);
        LONG.set(h, SEQ, id);
        LONG.set(h, ACK, 0L);
        INT.set(h, WINDOW, 0);
        INT.set(h, FRAG_OFFSET, offset);
        INT.set(h, TOTAL, total);
    }

    static byte proto(byte[] h) {
        return h[PROTO];
    }

    static byte flags(byte[] h) {
        return h[FLAGS];
    }

    static int port(byte[] h) {
        return ((h[PORT] & 0xff) << 8) | (h[PORT + 1] & 0xff);
    }

    static int length(byte[] h) {
        return (int) INT.get(h, LENGTH);
    }

    static long seq(byte[] h) {
        return (long) LONG.get(h, SEQ);
    }

    static long ack(byte[] h) {
        return (long) LONG.get(h, ACK);
    }

    static int window(byte[] h) {
        return (int) INT.get(h, WINDOW);
    }

    static int fragOffset(byte[] h) {
        return (int) INT.get(h, FRAG_OFFSET);
    }

    static int total(byte[] h) {
        return (int) INT.get(h, TOTAL);
    }
}
