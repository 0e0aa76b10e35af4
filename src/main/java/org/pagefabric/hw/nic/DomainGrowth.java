package org.pagefabric.hw.nic;

/**
 * A protection domain whose registrations of device memory cost more the more device memory it
 * already holds: each registration pays {@code nic.register.device_growth} per GiB held before
 * it, on top of its own base and per-page cost. An AWS EFA domain behaves so with GPU memory
 * (kvcache-ai/Mooncake pull request 3210: about 260 ms per GiB already registered on p5.48xlarge,
 * flat from 0 to 19 GiB, host memory not accumulating). A deregistration lowers what the domain
 * holds, so the order of registrations decides their sum: smallest first is cheapest. One object
 * per domain; host memory never passes through it.
 */
public final class DomainGrowth {
    private static final double GIB = 1024.0 * 1024 * 1024;

    private final long psPerGiB;
    private long heldBytes;

    /** A domain holding nothing, whose device registrations grow by {@code psPerGiB} per GiB held. */
    public DomainGrowth(long psPerGiB) {
        if (psPerGiB < 0) {
            throw new IllegalArgumentException("growth per GiB must not be negative: " + psPerGiB);
        }
        this.psPerGiB = psPerGiB;
    }

    /** What registering device memory costs beyond its own size with {@code priorBytes} already held. */
    public long growthPs(long priorBytes) {
        return Math.round(psPerGiB * (priorBytes / GIB));
    }

    /**
     * Registers {@code bytes} of device memory: returns the growth it pays for what the domain
     * held before it, and adds it to what the domain holds.
     */
    public long register(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("a registration covers at least one byte: " + bytes);
        }
        long cost = growthPs(heldBytes);
        heldBytes += bytes;
        return cost;
    }

    /** Deregisters {@code bytes} of device memory this domain holds. */
    public void deregister(long bytes) {
        if (bytes <= 0 || bytes > heldBytes) {
            throw new IllegalArgumentException("deregistering " + bytes + " B from a domain holding " + heldBytes + " B");
        }
        heldBytes -= bytes;
    }

    /** Device memory the domain holds registered, in bytes. */
    public long heldBytes() {
        return heldBytes;
    }
}
