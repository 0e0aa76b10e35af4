/**
 * Open-MX (seed 003): MX message passing over generic Ethernet with driver-managed pinning.
 *
 * <p><b>Where the data path lives.</b> Open-MX has no RDMA offload: the sender's driver hands
 * pinned user pages to the Ethernet NIC, and the receiver's driver copies every incoming frame
 * into the target pages in a bottom half (003 §2.2). So the model puts the receive path in the
 * driver rather than in the RDMA NIC: each {@link org.pagefabric.reg.openmx.Driver} opens its
 * own reliable connections on the node's network attachment (channels from
 * {@code OpenMxPolicy.CHANNEL_BASE}), fills pull replies from its pinned frames, and places
 * arriving ones itself, in bottom halves run NAPI style by a {@link org.pagefabric.reg.openmx.ReceivePoll}
 * per core: a frame reaching an idle receive path waits for the NIC's interrupt coalescing
 * ({@code openmx.recv.coalescing}) and pays an interrupt, frames arriving while the poll has work
 * join it; each costs {@code openmx.recv.per_packet} plus its copy at
 * {@code openmx.recv.copy_bandwidth}. An arriving pull reply whose target page is not pinned yet is dropped
 * (an Overlap-Miss, counted) and the transport recovers it as Open-MX's pull does (selective, per
 * block): at once by a re-request when a later block of the same pull completes
 * ({@code transport.nack_on_gap}, 003 §4.3 footnote 4; once until a time-out), otherwise by the
 * 1 s time-out. A miss in the last block of a pull, or a second miss in a block already asked
 * for again, therefore costs the time-out. This leaves {@code hw/nic/Nic.java} untouched.
 *
 * <p><b>Protocol.</b> Messages up to {@code openmx.eager_max} are copied into a statically
 * pinned send ring slot, travel into the peer's matching receive ring slot and are copied into
 * the receive once matched (the slot is then free again: credits emerge). Larger ones send a
 * rendezvous; the receiver, once it matched it, pulls the data (one pull request per message;
 * the transport moves it in blocks of {@code transport.block_size} and MTU packets) and sends a
 * notify at the end, on which the sender completes (003 Fig. 2).
 *
 * <p><b>Pinning</b> ({@link org.pagefabric.reg.openmx.PinMode}): through the kernel's
 * get_user_pages/put_page and their costs; the work runs on the calling process's core, so a
 * core busy with bottom halves (which preempt threads) pins late. openmx-pin pins both regions
 * before the rendezvous/pull and unpins at the end; openmx-permanent keeps them; openmx-cache
 * declares regions in a user-space LRU cache, pins on first use, keeps them pinned, and unpins
 * on an MMU interval notifier invalidation or, under memory pressure, idle regions first;
 * openmx-overlap sends the rendezvous or the pull first and pins in chunks of
 * {@code openmx.pin.chunk_pages} behind it. The sender answers a pull request with the part of its
 * region already pinned and sends the rest as the pinning reaches it (003 §3.3: the region
 * accessors read the pinned part of a region not wholly pinned yet); the receive side is where
 * misses happen (003 §4.3). Table 1's pin+unpin cost is charged two thirds when pinning, one
 * third when unpinning.
 *
 * <p><b>Cores.</b> The NIC's receive interrupt goes to core 0 (Linux's default) unless a workload
 * binds it elsewhere or steers each message's bottom halves to its process's core
 * ({@link org.pagefabric.reg.InterruptPlacement}, which the policy offers); processes a workload does not
 * place run on the cores after the interrupt's, one per rank of the node. Sends from a process
 * (eager data, rendezvous, pull request) pay {@code openmx.send.per_packet} before leaving; pull
 * replies and notifies pay it in the bottom half that sends them.
 *
 * <p><b>Limits.</b> Bottom halves decide at packet arrival and their CPU time is queued on the
 * core afterwards (a message completes only after its bottom halves ran). An invalidation
 * during a transfer unpins the region under it; its remaining packets are then dropped until
 * the transport gives up. Processes say which core they run on through
 * {@link org.pagefabric.reg.openmx.OpenMxPolicy#place}.
 */
package org.pagefabric.reg.openmx;
