package org.pagefabric.reg.openmx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.collections.IntArrayQueue;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.ReliableSender;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Fault;
import org.pagefabric.hw.os.InvalidationReason;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/**
 * The Open-MX driver of one rank (003 §2.2, §3): its connections to every peer over the node's
 * Ethernet attachment, its statically pinned eager rings, the user regions it pins, its
 * bottom-half receive processing, and the library's posted and unexpected receives.
 */
final class Driver {
    final Endpoint rank;
    final OpenMxPolicy policy;
    private final Kernel kernel;
    private final PhysicalMemory memory;
    private final AddressSpace as;
    private final FrameIo io = new FrameIo();
    private final CpuThread[] threads;
    private final ReliableSender[] out;
    /** Messages named by wire messages in flight from this driver; index = packet address. */
    private Message[] table = new Message[64];
    /** Offset in its message of the bytes each wire message carries (pull replies served piecewise). */
    private long[] tableBase = new long[64];
    /** The wire kind of each table entry ({@link Message#PULL_DATA} ...). */
    private int[] tableKind = new int[64];
    private final IntArrayQueue freeEntries = new IntArrayQueue();
    private int entries;
    /** Eager send ring per peer (slot i here travels into slot i of the peer's receive ring). */
    final UserRegion[] sendRing;
    final UserRegion[] recvRing;
    private final IntArrayQueue[] freeSlots;
    private final Completion[] slotFreed;
    private final ArrayList<Message.Posted>[] posted;
    private final ArrayList<Message>[] unexpected;
    private final List<UserRegion> permanentRegions = new ArrayList<>();
    final RegionCache cache;
    /** Core of this rank's processes when the workload does not place them. */
    int defaultCore;
    /** Pages this driver holds pinned now, eager rings included. */
    long pinnedPages;
    private long processes;

    @SuppressWarnings("unchecked")
    Driver(OpenMxPolicy policy, Endpoint rank, int ranks) {
        this.policy = policy;
        this.rank = rank;
        this.kernel = rank.node().kernel();
        this.memory = kernel.memory();
        this.as = rank.process();
        this.threads = new CpuThread[rank.node().cpu().coreCount()];
        this.out = new ReliableSender[ranks];
        this.sendRing = new UserRegion[ranks];
        this.recvRing = new UserRegion[ranks];
        this.freeSlots = new IntArrayQueue[ranks];
        this.slotFreed = new Completion[ranks];
        this.posted = new ArrayList[ranks];
        this.unexpected = new ArrayList[ranks];
        this.cache = policy.mode() == PinMode.CACHE ? new RegionCache(policy.cacheEntries()) : null;
        for (int peer = 0; peer < ranks; peer++) {
            posted[peer] = new ArrayList<>();
            unexpected[peer] = new ArrayList<>();
        }
    }

    /** Maps and pins the eager rings (the statically pinned buffers of 003 §2.2); returns the kernel time. */
    long setUp() {
        long cost = 0;
        long ringBytes = (long) policy.eagerSlots() * policy.eagerMax();
        for (int peer = 0; peer < out.length; peer++) {
            if (peer == rank.id()) {
                continue;
            }
            for (int dir = 0; dir < 2; dir++) {
                long va = kernel.mmap(as, 0, ringBytes, Prot.READ_WRITE, MapFlags.POPULATE).address();
                UserRegion ring = new UserRegion(va, ringBytes);
                cost += pinNow(ring);
                if (dir == 0) {
                    sendRing[peer] = ring;
                } else {
                    recvRing[peer] = ring;
                }
            }
            freeSlots[peer] = new IntArrayQueue();
            for (int s = 0; s < policy.eagerSlots(); s++) {
                freeSlots[peer].addInt(s);
            }
        }
        return cost;
    }

    /** Opens this driver's connection halves toward {@code peer}, on {@code channel} here and {@code peerChannel} there. */
    void connect(Driver peer, TransportEndpoint endpoint, int channel, int peerChannel) {
        int p = peer.rank.id();
        int peerNode = peer.rank.node().id();
        out[p] = endpoint.openSender(channel, peerNode, peerChannel, policy.transport(), this::payload,
                (id, status) -> sent(id, status));
        endpoint.openReceiver(channel, peerNode, peerChannel, policy.transport(), pk -> place(peer, pk),
                (id, length, opcode, address) -> delivered(peer, opcode, (int) address, length));
    }

    // ------------------------------------------------------------------ the library's calls

    /** An MX send: eager through the pinned ring, or a rendezvous whose data the receiver pulls. */
    void send(ProcessContext ctx, Driver to, long va, long length, long wrId, long matchBits) {
        int core = policy.coreOf(ctx, this);
        Message m = new Message(this, to, length, wrId, core, matchBits);
        if (length <= policy.eagerMax()) {
            int peer = to.rank.id();
            while (freeSlots[peer].isEmpty()) {
                if (slotFreed[peer] == null) {
                    slotFreed[peer] = new Completion(rank.node().name() + ".omx.slot" + peer);
                }
                ctx.await(slotFreed[peer]);
            }
            m.slot = freeSlots[peer].removeInt();
            UserRegion ring = sendRing[peer];
            long cost = copyUser(va, ring, ring.start() + (long) m.slot * policy.eagerMax(), length, false);
            run(ctx, core, cost + policy.copyPs(length) + sendCost(length));
            post(peer, m, Message.EAGER, 0, length);
            rank.completeSend(wrId, org.pagefabric.hw.nic.Opcode.SEND, org.pagefabric.hw.net.CompletionStatus.SUCCESS,
                    length, ctx.now());
            return;
        }
        PinMode mode = policy.mode();
        m.source = acquire(ctx, va, length, core, mode != PinMode.OVERLAP);
        run(ctx, core, sendCost(0));
        post(to.rank.id(), m, Message.RNDV, 0, 0);
        m.rndvAtPs = policy.now();
        if (mode == PinMode.OVERLAP) {
            startPinning(m.source, core);
        }
    }

    /**
     * Posts a receive: matched at once against the oldest unexpected message from that peer.
     * Messages and receives between two ranks pair in order, as sends and receives on a verbs
     * queue pair do and as MPI's non-overtaking rule orders one source's messages of one tag.
     */
    void receive(ProcessContext ctx, Driver from, long va, long length, long wrId, long matchBits) {
        int peer = from.rank.id();
        Message.Posted r = new Message.Posted(va, length, wrId, policy.coreOf(ctx, this), matchBits);
        ArrayList<Message> waiting = unexpected[peer];
        for (int i = 0; i < waiting.size(); i++) {
            if (waiting.get(i).matchBits == matchBits) {
                match(ctx, waiting.remove(i), r);
                return;
            }
        }
        posted[peer].add(r);
    }

    private void match(ProcessContext ctx, Message m, Message.Posted r) {
        if (m.length > r.length()) {
            throw new SimulationException("rank " + rank.id() + ": a message of " + m.length + " B from rank "
                    + m.from.rank.id() + " does not fit the receive of " + r.length() + " B posted for it");
        }
        m.receive = r;
        if (m.slot >= 0) {
            long cost = copyOut(m);
            if (ctx != null) {
                run(ctx, r.core(), cost);
                rank.completeReceive(r.wrId(), org.pagefabric.hw.net.CompletionStatus.SUCCESS, m.length, ctx.now());
            } else {
                // matched in the bottom half: the copy runs there, the receive completes after it
                core(m).submit(Core.TASKLET, null, cost, null, (t, a) -> rank.completeReceive(r.wrId(),
                        org.pagefabric.hw.net.CompletionStatus.SUCCESS, m.length, policy.now()), 0, 0, null);
            }
            return;
        }
        new SimProcess(policy.simulator(), rank.node(), "rank" + rank.id() + "-omx-pull" + processes++,
                c -> pull(c, m)).start();
    }

    /** The receiver's side of a rendezvous, in the receiving process's context: pin (or not yet), then pull. */
    private void pull(ProcessContext ctx, Message m) {
        policy.place(ctx, m.receive.core());
        // Between two ranks of one node there is no network round trip to hide pinning behind
        // (Open-MX copies intra-node messages in the driver), and a dropped loopback reply would be
        // asked for again at the same instant: the receiver pins before it pulls.
        boolean overlap = policy.mode() == PinMode.OVERLAP && m.from.rank.node() != rank.node();
        m.target = acquire(ctx, m.receive.va(), m.length, m.receive.core(), !overlap);
        run(ctx, m.receive.core(), sendCost(0));
        post(m.from.rank.id(), m, Message.PULL, 0, 0);
        if (overlap) {
            startPinning(m.target, m.receive.core());
        }
    }

    // ------------------------------------------------------------------ regions and pinning

    /**
     * The region for a communication's buffer, per pin mode (a cached one with one more user);
     * pinned before returning when {@code pinNow}.
     */
    private UserRegion acquire(ProcessContext ctx, long va, long length, int core, boolean pinNow) {
        UserRegion r;
        switch (policy.mode()) {
            case PERMANENT -> {
                r = null;
                for (UserRegion p : permanentRegions) {
                    if (p.start() == va && p.length() == length) {
                        r = p;
                        break;
                    }
                }
                if (r == null) {
                    r = new UserRegion(va, length);
                    permanentRegions.add(r);
                }
            }
            case CACHE -> {
                r = cache.lookup(va, length);
                policy.cacheLookup(r != null);
                if (r == null) {
                    r = new UserRegion(va, length);
                    UserRegion victim = cache.declare(r);
                    if (victim != null) {
                        undeclare(victim);
                    }
                    UserRegion region = r;
                    r.watch = as.subscribe(r.firstPage, (long) r.pages() * Kernel.PAGE_SIZE,
                            (sub, s, e, reason, seq) -> invalidate(region, reason));
                }
            }
            default -> r = new UserRegion(va, length);
        }
        if (pinNow && !r.fullyPinned()) {
            run(ctx, core, pinRange(r, 0, r.pages(), true));
        }
        return r;
    }

    /** A communication no longer uses {@code r}: unpinned now unless the mode keeps it. */
    private void release(UserRegion r, int core) {
        PinMode mode = policy.mode();
        if (mode == PinMode.CACHE) {
            cache.release(r);
        }
        if (mode == PinMode.PER_COMMUNICATION || mode == PinMode.OVERLAP) {
            long cost = unpin(r);
            if (cost > 0) {
                thread(core).run(cost, null, 0, 0);
            }
        }
    }

    /**
     * Pins pages {@code [from, from + n)} of {@code r} not pinned yet; returns the kernel time.
     * {@code forUser}: a communication's region, whose pages the policy counts (the eager rings,
     * pinned once at set-up, are not).
     */
    private long pinRange(UserRegion r, int from, int n, boolean forUser) {
        int first = from;
        while (first < from + n && r.frames[first] != UserRegion.NOT_PINNED) {
            first++;
        }
        if (first == from + n) {
            return 0;
        }
        int count = from + n - first;
        PinResult pin = kernel.getUserPages(as, r.pageAddress(first), count, true);
        if (!pin.complete() && policy.mode() == PinMode.CACHE) {
            // memory pressure: unpin idle cached regions, least recently used first, and try again
            for (int i = 0; i < pin.pinned(); i++) {
                kernel.putPage(pin.frames()[i]);
            }
            for (UserRegion idle = cache.coldest(); idle != null; idle = cache.warmer(idle)) {
                if (idle.users() == 0) {
                    unpin(idle);
                    policy.pressureUnpin();
                }
            }
            pin = kernel.getUserPages(as, r.pageAddress(first), count, true);
        }
        if (!pin.complete()) {
            throw new SimulationException("rank " + rank.id() + ": Open-MX cannot pin " + r + ": " + pin.error());
        }
        for (int i = 0; i < count; i++) {
            if (r.frames[first + i] != UserRegion.NOT_PINNED) {
                kernel.putPage(pin.frames()[i]); // pinned meanwhile by an overlapped chunk: keep one pin
            } else {
                r.frames[first + i] = pin.frames()[i];
                r.pinnedPages++;
                pinnedPages++;
            }
        }
        r.advancePrefix();
        if (forUser) {
            policy.pinned(count);
        }
        return pin.costPs();
    }

    /** Pins a whole region at once without charging a process (set-up); returns the kernel time. */
    private long pinNow(UserRegion r) {
        return pinRange(r, 0, r.pages(), false);
    }

    /**
     * Overlapped pinning (003 §3.3): the driver pins the region chunk by chunk on the process's
     * core after the rendezvous or pull went out; each chunk becomes usable when its pinning work
     * has run on the core, so a busy core pins late.
     */
    private void startPinning(UserRegion r, int core) {
        new SimProcess(policy.simulator(), rank.node(), "rank" + rank.id() + "-omx-pin" + processes++, ctx -> {
            int chunk = policy.pinChunkPages();
            for (int from = 0; from < r.pages(); from += chunk) {
                int n = Math.min(chunk, r.pages() - from);
                int first = from;
                // the kernel pins now; the driver can use the pages once the call's time has passed on the core
                long[] frames = new long[n];
                PinResult pin = kernel.getUserPages(as, r.pageAddress(from), n, true);
                if (!pin.complete()) {
                    throw new SimulationException("rank " + rank.id() + ": Open-MX cannot pin " + r + ": " + pin.error());
                }
                System.arraycopy(pin.frames(), 0, frames, 0, n);
                policy.pinned(n);
                // Table 1's base is that of pinning (and unpinning) a region; the later chunks of
                // one region pay their pages only
                run(ctx, core, from == 0 ? pin.costPs() : Math.max(0, pin.costPs() - policy.pinBasePs()));
                for (int i = 0; i < n; i++) {
                    r.frames[first + i] = frames[i];
                }
                r.pinnedPages += n;
                pinnedPages += n;
                r.advancePrefix();
                if (r.servedPull != null) {
                    serve(r.servedPull);
                }
            }
        }).start();
    }

    /** Unpins every pinned page of {@code r}; returns the kernel time. */
    private long unpin(UserRegion r) {
        long cost = 0;
        if (r.pinnedPages == 0) {
            return 0;
        }
        cost += policy.unpinBasePs();
        for (int i = 0; i < r.frames.length; i++) {
            if (r.frames[i] != UserRegion.NOT_PINNED) {
                cost += kernel.putPage(r.frames[i]);
                r.frames[i] = UserRegion.NOT_PINNED;
            }
        }
        policy.unpinned(r.pinnedPages);
        pinnedPages -= r.pinnedPages;
        r.pinnedPages = 0;
        r.pinnedPrefix = 0;
        return cost;
    }

    /** MMU notifier callback of a cached region: unpin it; it stays declared and is pinned again on next use. */
    private void invalidate(UserRegion r, InvalidationReason reason) {
        if (r.pinnedPages > 0) {
            unpin(r);
            policy.invalidated();
        }
    }

    private void undeclare(UserRegion r) {
        unpin(r);
        if (r.watch != null) {
            r.watch.remove();
            r.watch = null;
        }
    }

    /** Drops every region this driver holds (the end of a run, or a test's deregistration). */
    void closeRegions() {
        if (cache != null) {
            for (UserRegion r = cache.coldest(); r != null; r = cache.warmer(r)) {
                undeclare(r);
            }
        }
        for (UserRegion r : permanentRegions) {
            unpin(r);
        }
    }

    // ------------------------------------------------------------------ wire

    /** Posts a wire message of {@code kind} carrying {@code length} bytes of {@code m} from its offset {@code base}. */
    private void post(int peer, Message m, int kind, long base, long length) {
        int e;
        if (freeEntries.isEmpty()) {
            if (entries == table.length) {
                table = Arrays.copyOf(table, table.length * 2);
                tableBase = Arrays.copyOf(tableBase, tableBase.length * 2);
                tableKind = Arrays.copyOf(tableKind, tableKind.length * 2);
            }
            e = entries++;
        } else {
            e = freeEntries.removeInt();
        }
        table[e] = m;
        tableBase[e] = base;
        tableKind[e] = kind;
        // the entry doubles as the transport's message id: it is reused only after the message completed
        out[peer].post(e, length, e, kind);
    }

    /**
     * The sender's completion of a wire message: its table entry is free again, and a source
     * region whose notify came before its last pull reply was acknowledged is released now. On a
     * connection the transport gave up on (its retry limit) the message never completes: whoever
     * waits for it waits until the run ends, which reports the run unverified because the
     * transport gave up, as a verbs application sees an error completion and stops.
     */
    private void sent(long id, CompletionStatus status) {
        if (status != CompletionStatus.SUCCESS) {
            return;
        }
        int e = (int) id;
        Message m = table[e];
        boolean reply = tableKind[e] == Message.PULL_DATA;
        freeEntry(e);
        if (reply && --m.repliesInFlight == 0 && m.notified) {
            release(m.source, m.core);
        }
    }

    private Message entry(int e) {
        return table[e];
    }

    private long entryBase(int e) {
        return tableBase[e];
    }

    /**
     * The pull replies and eager data leave from pinned pages. Pull replies and notifies are built
     * in the bottom half that handled the pull request or the last reply, which pays the driver's
     * per-packet send cost; the process's own sends paid it before posting.
     */
    private boolean payload(Packet p) {
        int e = (int) p.address;
        Message m = table[e];
        switch (p.opcode) {
            case Message.EAGER -> {
                UserRegion ring = sendRing[m.to.rank.id()];
                io.read(memory, ring.frames, ring.firstPage, ring.start() + (long) m.slot * policy.eagerMax() + p.offset, p);
            }
            case Message.PULL_DATA -> {
                bottomHalfSend(m);
                long offset = tableBase[e] + p.offset;
                if (m.source.pinned(offset, p.length)) {
                    io.read(memory, m.source.frames, m.source.firstPage, m.source.start() + offset, p);
                } else {
                    // The source stays pinned while its replies are in flight, so only an MMU
                    // notifier invalidation under the transfer gets here: the pages are gone, the
                    // reply carries no bytes, and were it taken the transfer would not verify.
                    policy.unpinnedReplyRead();
                    io.zeros(p);
                }
            }
            case Message.NOTIFY -> {
                bottomHalfSend(m);
                io.read(memory, null, 0, 0, p);
            }
            default -> io.read(memory, null, 0, 0, p);
        }
        return true;
    }

    private void bottomHalfSend(Message m) {
        policy.coreFor(this, m).submit(Core.TASKLET, null, policy.sendPerPacketPs(), null, null, 0, 0, null);
    }

    /** The driver's time to build and hand over the packets of a {@code length}-byte wire message. */
    private long sendCost(long length) {
        return policy.sendPerPacketPs() * Math.max(1, Math.ceilDiv(length, policy.transport().mtuBytes()));
    }

    /**
     * The bottom half of an arriving packet: a pull reply for a page not pinned yet is dropped (an
     * Overlap-Miss, 003 §4.3) and will be asked for again; anything else is copied in place.
     */
    private SinkVerdict place(Driver peer, Packet p) {
        Message m = peer.entry((int) p.address);
        Core bh = policy.coreFor(this, m);
        switch (p.opcode) {
            case Message.EAGER -> {
                UserRegion ring = recvRing[peer.rank.id()];
                io.write(memory, ring.frames, ring.firstPage, ring.start() + (long) m.slot * policy.eagerMax() + p.offset, p);
            }
            case Message.PULL_DATA -> {
                UserRegion t = m.target;
                long offset = peer.entryBase((int) p.address) + p.offset;
                if (!t.pinned(offset, p.length)) {
                    policy.overlapMiss();
                    policy.poll(rank.node(), bh).frame(policy.recvPerPacketPs());
                    return SinkVerdict.DROP;
                }
                io.write(memory, t.frames, t.firstPage, t.start() + offset, p);
            }
            default -> {
            }
        }
        policy.poll(rank.node(), bh).frame(policy.recvPerPacketPs() + policy.copyPs(p.length));
        policy.received();
        return SinkVerdict.ACCEPT;
    }

    /** A whole wire message arrived from {@code peer}; acts once the bottom halves queued before it have run. */
    private void delivered(Driver peer, int kind, int e, long length) {
        Message m = peer.entry(e);
        policy.poll(rank.node(), policy.coreFor(this, m)).after(() -> act(peer, kind, m, length));
    }

    private void freeEntry(int e) {
        table[e] = null;
        freeEntries.addInt(e);
    }

    private void act(Driver peer, int kind, Message m, long length) {
        switch (kind) {
            case Message.EAGER, Message.RNDV -> {
                ArrayList<Message.Posted> list = posted[peer.rank.id()];
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i).matchBits() == m.matchBits) {
                        match(null, m, list.remove(i));
                        return;
                    }
                }
                unexpected[peer.rank.id()].add(m);
            }
            case Message.PULL -> {
                policy.handshake(policy.now() - m.rndvAtPs);
                m.pullRequested = true;
                serve(m);
            }
            case Message.PULL_DATA -> {
                m.pulled += length;
                if (m.pulled < m.length) {
                    return;
                }
                rank.completeReceive(m.receive.wrId(), org.pagefabric.hw.net.CompletionStatus.SUCCESS, m.length,
                        policy.now());
                release(m.target, m.receive.core());
                post(peer.rank.id(), m, Message.NOTIFY, 0, 0);
            }
            case Message.NOTIFY -> {
                // The send completes on the notify, but its pages stay pinned until the transport
                // is done with every pull reply: a reply whose ACK was lost is sent again from
                // them. Open-MX's driver does the same: each pull reply's skb holds a reference on
                // the user region until it has left (omx_pull.c, the pull reply skb destructor).
                m.notified = true;
                if (m.repliesInFlight == 0) {
                    release(m.source, m.core);
                }
                rank.completeSend(m.sendWrId, org.pagefabric.hw.nic.Opcode.SEND,
                        org.pagefabric.hw.net.CompletionStatus.SUCCESS, m.length, policy.now());
            }
            default -> throw new SimulationException("unknown Open-MX wire kind " + kind);
        }
    }

    /**
     * Sends the pull replies of {@code m} that its source region's pinned prefix allows and, if
     * pinning has not reached the end yet, has the pinning serve the rest as it advances (003
     * §3.3: the pinned region accessors read the pinned part before the whole region is pinned).
     */
    private void serve(Message m) {
        UserRegion r = m.source;
        long upTo = r.pinnedPrefixBytes();
        if (upTo > m.served) {
            post(m.to.rank.id(), m, Message.PULL_DATA, m.served, upTo - m.served);
            m.repliesInFlight++;
            m.served = upTo;
        }
        r.servedPull = m.served < m.length ? m : null;
    }

    /** Copies an eager message out of the receive ring into the matched receive; frees the sender's slot. */
    private long copyOut(Message m) {
        int peer = m.from.rank.id();
        UserRegion ring = recvRing[peer];
        long cost = copyUser(m.receive.va(), ring, ring.start() + (long) m.slot * policy.eagerMax(), m.length, true);
        m.from.releaseSlot(rank.id(), m.slot);
        return cost + policy.copyPs(m.length);
    }

    private void releaseSlot(int peer, int slot) {
        freeSlots[peer].addInt(slot);
        if (slotFreed[peer] != null) {
            Completion c = slotFreed[peer];
            slotFreed[peer] = null;
            c.complete();
        }
    }

    /** Copies between a user buffer (faulted in as the CPU would) and a pinned ring; returns the fault time. */
    private long copyUser(long userVa, UserRegion ring, long ringVa, long length, boolean toUser) {
        long faults = 0;
        for (long done = 0; done < length; ) {
            long u = userVa + done;
            long g = ringVa + done;
            int n = (int) Math.min(length - done, Math.min(Kernel.PAGE_SIZE - (u & (Kernel.PAGE_SIZE - 1)),
                    Kernel.PAGE_SIZE - (g & (Kernel.PAGE_SIZE - 1))));
            Fault f = kernel.touch(as, u, toUser);
            if (!f.resolved()) {
                throw new SimulationException("rank " + rank.id() + ": Open-MX copy at 0x" + Long.toHexString(u)
                        + " faulted: " + f.kind());
            }
            faults += f.costPs();
            long pu = as.physicalAddress(u);
            long ringFrame = ring.frames[(int) ((g - ring.firstPage) / Kernel.PAGE_SIZE)];
            int ringOff = (int) (g & (Kernel.PAGE_SIZE - 1));
            if (toUser) {
                memory.copy(ringFrame, ringOff, pu >>> 12, (int) (pu & (Kernel.PAGE_SIZE - 1)), n);
            } else {
                memory.copy(pu >>> 12, (int) (pu & (Kernel.PAGE_SIZE - 1)), ringFrame, ringOff, n);
            }
            done += n;
        }
        return faults;
    }

    // ------------------------------------------------------------------ cores

    /** Runs {@code costPs} of this rank's work on {@code core} and waits for it: a busy core delays it. */
    void run(ProcessContext ctx, int core, long costPs) {
        if (costPs <= 0) {
            return;
        }
        Completion done = new Completion();
        thread(core).run(costPs, done, 0);
        ctx.await(done);
    }

    private CpuThread thread(int core) {
        if (threads[core] == null) {
            threads[core] = rank.node().cpu().thread("rank" + rank.id() + ".omx" + core, core);
        }
        return threads[core];
    }

    Core core(Message m) {
        return policy.coreFor(this, m);
    }

    /** The pinning counters must balance: every region this driver ever pinned, unpinned or still held. */
    long regionPinnedPages() {
        return pinnedPages;
    }

    /** The ring pages, pinned for the whole run. */
    long ringPages() {
        long n = 0;
        for (int p = 0; p < out.length; p++) {
            if (sendRing[p] != null) {
                n += sendRing[p].pages() + recvRing[p].pages();
            }
        }
        return n;
    }

}
