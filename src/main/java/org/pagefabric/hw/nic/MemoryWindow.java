package org.pagefabric.hw.nic;

/**
 * A type-2 memory window ({@code ibv_alloc_mw} with {@code IBV_MW_TYPE_2}): a remote key of its
 * own over part of a registered region, with its own bounds and rights, bound and revoked by work
 * requests on a queue pair rather than by system calls.
 *
 * <p>Semantics from libibverbs' {@code ibv_post_send(3)} and {@code ibv_bind_mw(3)}: a window is
 * allocated unbound; a {@link Opcode#BIND_MW} request ({@code wr.bind_mw}: the window, the new
 * rkey, and {@code bind_info}: region, address, length, access) binds it in send-queue order and
 * gives it the rkey the request names, whose 8-bit tag the consumer changes on every bind
 * ({@code ibv_inc_rkey(3)}); a {@link Opcode#LOCAL_INV} request naming that rkey
 * ({@code invalidate_rkey}) unbinds it. A type-2 window is reachable only through the queue pair
 * it was bound on (rdma-core's soft RoCE, {@code drivers/infiniband/sw/rxe/rxe_mw.c}, refuses a
 * type-2 window used from another QP) and only while its region is registered.
 */
public final class MemoryWindow {
    private final int index;
    private final ProtectionDomain pd;
    private int rkey;
    private boolean bound;
    private MemoryRegion region;
    private QueuePair qp;
    private long address;
    private long length;
    private int access;
    private boolean deallocated;

    MemoryWindow(int index, ProtectionDomain pd, int rkey) {
        this.index = index;
        this.pd = pd;
        this.rkey = rkey;
    }

    /** Index in the NIC's key table (shared with regions, as mlx5 draws both from one mkey space). */
    public int index() {
        return index;
    }

    /** The protection domain the window was allocated in. */
    public ProtectionDomain pd() {
        return pd;
    }

    /** The remote key: the one the last bind gave it (or the one it was allocated with). */
    public int rkey() {
        return rkey;
    }

    /** Whether a bind has taken effect and no invalidation since. */
    public boolean bound() {
        return bound;
    }

    /** The region it is bound to, or null. */
    public MemoryRegion region() {
        return bound ? region : null;
    }

    /** The queue pair it was bound on, or null: the only one its rkey works through. */
    public QueuePair qp() {
        return bound ? qp : null;
    }

    /** First address it grants. */
    public long address() {
        return address;
    }

    /** Bytes it grants. */
    public long length() {
        return length;
    }

    /** Remote rights it grants ({@link AccessFlags}). */
    public int access() {
        return access;
    }

    /** Whether it has been returned to the NIC ({@code ibv_dealloc_mw}). */
    public boolean deallocated() {
        return deallocated;
    }

    void bind(QueuePair on, MemoryRegion mr, long va, long len, int rights, int newRkey) {
        this.qp = on;
        this.region = mr;
        this.address = va;
        this.length = len;
        this.access = rights;
        this.rkey = newRkey;
        this.bound = true;
    }

    void invalidate() {
        bound = false;
        region = null;
        qp = null;
    }

    void deallocate() {
        invalidate();
        deallocated = true;
    }

    /** Whether {@code [va, va + len)} lies inside the bound range (without overflow). */
    boolean contains(long va, long len) {
        return len >= 0 && va >= address && va - address <= length && len <= length - (va - address);
    }

    @Override
    public String toString() {
        return String.format("MW[%d] rkey=0x%x %s", index, rkey, bound
                ? String.format("va=0x%x len=%d %s", address, length, AccessFlags.describe(access)) : "unbound");
    }
}
