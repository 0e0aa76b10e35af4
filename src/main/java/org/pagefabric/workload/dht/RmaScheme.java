package org.pagefabric.workload.dht;

import org.pagefabric.comm.rma.DatagramRma;
import org.pagefabric.sim.process.ProcessContext;

/**
 * Traditional RMA (002 §4.1, Listing 2): the inserting process works on the remote volume with
 * blocking atomics on the target NIC and puts followed by flushes. An insert into a free cell is
 * one compare-and-swap; a collision adds a fetch-and-add for a heap cell, a put of the element, a
 * fetch-and-replace of the chain's last pointer, a compare-and-swap of the table cell's pointer
 * and, when the chain already exists, a put linking the previous element.
 */
final class RmaScheme implements DhtScheme {
    private DhtContext dht;

    @Override
    public void setUp(DhtContext dht) {
        this.dht = dht;
    }

    @Override
    public void insert(ProcessContext ctx, int rank, int target, long elem) {
        DatagramRma f = dht.fabric();
        Volume v = dht.volume(target);
        long pos = DhtHash.position(elem);
        if (f.atomic(ctx, rank, target, DatagramRma.CAS, Volume.address(pos, Volume.ELEM), 0, elem) != 0) {
            v.countCollision();
            long free = f.atomic(ctx, rank, target, DatagramRma.FETCH_ADD, Volume.address(0, Volume.NEXT_FREE), 1, 0);
            if (free >= v.capacity()) {
                // The heap is full: Listing 2 would resize; the element is lost and verification says so.
                v.countOverflow();
            } else {
                f.put(ctx, rank, target, Volume.address(free, Volume.ELEM), elem);
                f.flush(ctx, rank);
                long prev = f.atomic(ctx, rank, target, DatagramRma.SWAP, Volume.address(pos, Volume.LAST_PTR), free, 0);
                if (f.atomic(ctx, rank, target, DatagramRma.CAS, Volume.address(pos, Volume.PTR), 0, free) != 0) {
                    f.put(ctx, rank, target, Volume.address(prev, Volume.PTR), free);
                    f.flush(ctx, rank);
                }
            }
        }
        dht.applied(ctx.now());
    }
}
