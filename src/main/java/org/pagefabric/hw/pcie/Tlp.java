package org.pagefabric.hw.pcie;

/**
 * How a transfer splits into transaction layer packets. A DMA engine cuts a transfer at
 * aligned blocks of the transaction size (max payload for writes and completions, max read
 * request for reads): a TLP never crosses such a block, which also keeps it inside the 4 KiB
 * boundary that the PCIe specification forbids a request to cross.
 */
public final class Tlp {
    private Tlp() {
    }

    /** Number of TLPs that carry {@code length} bytes from {@code address} in blocks of {@code block}. */
    public static long count(long address, long length, int block) {
        check(address, length, block);
        if (length == 0) {
            return 0;
        }
        long first = address / block;
        long last = (address + length - 1) / block;
        return last - first + 1;
    }

    /** Payload bytes of the last TLP of the transfer (0 for an empty transfer). */
    public static long lastPayload(long address, long length, int block) {
        check(address, length, block);
        if (length == 0) {
            return 0;
        }
        long end = address + length;
        long lastStart = Math.max(address, (end - 1) / block * block);
        return end - lastStart;
    }

    /** Bytes on the wire for the payload and one overhead per TLP. */
    public static long wireBytes(long address, long length, int block, int overheadBytes) {
        return length + count(address, length, block) * overheadBytes;
    }

    private static void check(long address, long length, int block) {
        if (address < 0 || length < 0) {
            throw new IllegalArgumentException("address " + address + " and length " + length + " must not be negative");
        }
        if (block <= 0) {
            throw new IllegalArgumentException("block " + block + " must be positive");
        }
    }
}
