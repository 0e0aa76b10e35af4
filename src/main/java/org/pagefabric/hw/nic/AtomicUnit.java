package org.pagefabric.hw.nic;

import java.util.Arrays;

/**
 * The atomic unit of one target NIC. An atomic reads its word from host memory, modifies it and
 * writes it back; for that read-modify-write to be atomic the unit locks the word, so an atomic
 * on a word waits for the one before it on the same word. Atomics on different words do not
 * wait for each other: each has its own DMA read round trip, and PCIe lets a device keep many
 * reads outstanding (RDMA NICs lock per address, not the whole unit: Kalia et al., "Design
 * Guidelines for High Performance RDMA Systems", USENIX ATC 2016, measure contended
 * single-address atomics far below atomics spread over addresses). A word is named by the
 * process that owns it and its address in that process.
 *
 * <p>State is the atomics still in flight, in primitive arrays that grow to the most in flight
 * at once: nothing is allocated per atomic.
 */
final class AtomicUnit {
    private int[] owner = new int[8];
    private long[] address = new long[8];
    private long[] doneAt = new long[8];
    private int size;

    /**
     * An atomic on word {@code addr} of process {@code target} arrives at {@code now} and takes
     * {@code costPs} once it may start: returns when it is done, after every atomic on the same
     * word admitted before it.
     */
    long admit(long now, int target, long addr, long costPs) {
        long start = now;
        for (int i = 0; i < size; ) {
            if (doneAt[i] <= now) {
                size--;
                owner[i] = owner[size];
                address[i] = address[size];
                doneAt[i] = doneAt[size];
                continue;
            }
            if (owner[i] == target && address[i] == addr) {
                start = Math.max(start, doneAt[i]);
            }
            i++;
        }
        long done = start + costPs;
        if (size == owner.length) {
            owner = Arrays.copyOf(owner, size * 2);
            address = Arrays.copyOf(address, size * 2);
            doneAt = Arrays.copyOf(doneAt, size * 2);
        }
        owner[size] = target;
        address[size] = addr;
        doneAt[size] = done;
        size++;
        return done;
    }

    /** Atomics admitted and not yet done at the last {@link #admit}. */
    int inFlight() {
        return size;
    }
}
