package org.pagefabric.hw.net;

/**
 * The messages a {@link ReliableSender} has posted and not yet completed: a ring indexed by
 * message sequence number ({@code msn & mask}), struct-of-arrays so steady traffic allocates
 * nothing; it doubles when full. Messages {@code [head, tail)} are outstanding.
 *
 * <p>Fields are read and written in place by the sender: the ring is its state, split out so the
 * sender's class holds only what it does with it.
 */
final class SenderMessages {
    long[] id;
    long[] length;
    long[] address;
    int[] opcode;
    int[] key;
    /** Blocks of each message. */
    int[] blocks;
    /** Blocks of each message acknowledged so far. */
    int[] acked;
    int mask;
    /** Oldest message not yet completed. */
    long head;
    /** Sequence number the next posted message gets. */
    long tail;

    /** A ring of {@code capacity} entries, a power of two. */
    SenderMessages(int capacity) {
        allocate(capacity);
    }

    private void allocate(int capacity) {
        id = new long[capacity];
        length = new long[capacity];
        address = new long[capacity];
        opcode = new int[capacity];
        key = new int[capacity];
        blocks = new int[capacity];
        acked = new int[capacity];
        mask = capacity - 1;
    }

    /** The ring index of message {@code msn}. */
    int index(long msn) {
        return (int) (msn & mask);
    }

    /** Appends a message of {@code blockCount} blocks, none acknowledged; grows the ring if full. */
    void add(long messageId, long messageLength, long messageAddress, int messageOpcode, int messageKey,
             int blockCount) {
        if (tail - head > mask) {
            grow();
        }
        int i = index(tail);
        id[i] = messageId;
        length[i] = messageLength;
        address[i] = messageAddress;
        opcode[i] = messageOpcode;
        key[i] = messageKey;
        blocks[i] = blockCount;
        acked[i] = 0;
        tail++;
    }

    private void grow() {
        long[] oldId = id;
        long[] oldLength = length;
        long[] oldAddress = address;
        int[] oldOpcode = opcode;
        int[] oldKey = key;
        int[] oldBlocks = blocks;
        int[] oldAcked = acked;
        int oldMask = mask;
        allocate(oldId.length * 2);
        for (long m = head; m < tail; m++) {
            int o = (int) (m & oldMask);
            int n = index(m);
            id[n] = oldId[o];
            length[n] = oldLength[o];
            address[n] = oldAddress[o];
            opcode[n] = oldOpcode[o];
            key[n] = oldKey[o];
            blocks[n] = oldBlocks[o];
            acked[n] = oldAcked[o];
        }
    }

    /** Messages posted and not yet completed. */
    long outstanding() {
        return tail - head;
    }
}
