package org.pagefabric.hw.nic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Opcodes of NIC messages on the wire (the transport carries them opaquely). */
final class WireOp {
    /** A request the NIC executes itself (a window bind or invalidation): nothing goes on the wire. */
    static final int NONE = 0;
    static final int WRITE = 1;
    static final int SEND = 2;
    static final int READ_REQUEST = 3;
    static final int READ_RESPONSE = 4;
    static final int CMP_AND_SWP = 5;
    static final int FETCH_AND_ADD = 6;
    static final int ATOMIC_RESPONSE = 7;

    /** Bytes of a read or atomic request's payload: two 8-byte operands. */
    static final int REQUEST_BYTES = 16;

    /** Little-endian 8-byte fields in packet payloads, without a buffer object per access. */
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private WireOp() {
    }

    static int of(Opcode op) {
        return switch (op) {
            case RDMA_WRITE -> WRITE;
            case SEND -> SEND;
            case RDMA_READ -> READ_REQUEST;
            case ATOMIC_CMP_AND_SWP -> CMP_AND_SWP;
            case ATOMIC_FETCH_AND_ADD -> FETCH_AND_ADD;
            case RECV -> throw new IllegalArgumentException("a receive is not sent");
            case BIND_MW, LOCAL_INV -> throw new IllegalArgumentException(op + " is executed locally, not sent");
        };
    }

    /** Writes a request's two 8-byte operands at the start of {@code b}. */
    static void putLongs(byte[] b, long x, long y) {
        LONG_LE.set(b, 0, x);
        LONG_LE.set(b, 8, y);
    }

    /** The 8-byte field at {@code at} of {@code b}. */
    static long getLong(byte[] b, int at) {
        return (long) LONG_LE.get(b, at);
    }
}
