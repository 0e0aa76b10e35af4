package org.pagefabric.hw.stack;

import org.agrona.collections.IntArrayQueue;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.cpu.Tasklet;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.AddressHandle;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.Opcode;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;

/**
 * A node's kernel TCP/IP stack over its NIC, used as a plain Ethernet adapter: one
 * unreliable-datagram queue pair carries every frame (a datagram of at most the network's MTU),
 * and everything reliable is done here, by {@link TcpSocket}, not by the NIC's transport.
 *
 * <p><b>Buffers.</b> The transmit buffers and the receive ring's buffers are kernel memory
 * ({@link DmaArea}: {@link #SLOT} bytes each, populated, pinned and mapped for the NIC once); with
 * {@code nic.iommu} every DMA of them goes through the IOMMU, so its IOTLB misses and walks delay
 * the frame (the NIC sends a datagram, or completes its receive, after translating it).
 *
 * <p><b>Receive path.</b> A frame lands by DMA in a posted ring buffer and its completion
 * arrives in the completion queue; the NIC then raises its interrupt, at most once per
 * {@code stack.interrupt.throttle}. The handler schedules the NAPI poll (a tasklet on the
 * interrupt's core), which handles up to {@code stack.napi.budget} completions at
 * {@code stack.rx.per_packet} each: transmit completions free buffers, received frames go to
 * their socket (which keeps the buffer in its queue, or drops it) and the ring is refilled from
 * the free buffers. A poll that used its whole budget runs again; otherwise interrupts are
 * enabled again. A frame that finds no posted buffer is dropped by the NIC
 * ({@code ud_dropped_no_receive}).
 *
 * <p><b>Send path.</b> A socket call costs a system call, the copy from the user buffer into
 * transmit buffers ({@code stack.copy_bandwidth}) and {@code stack.tx.per_packet} per frame, on
 * the calling process's core; work done in the poll (acknowledgements, retransmissions) runs on
 * the poll's core.
 *
 * <p><b>Limits.</b> Connections exist from the start (no handshake, no FIN); one peer per socket;
 * the header fields sit in the first {@link FrameHeader#SIZE} bytes of each datagram, and the
 * network adds its own per-packet header ({@code transport.header}) on the wire on top.
 */
public final class HostStack extends Component {
    /** Bytes of one frame buffer (a 2 KiB skb data area, two per page). */
    public static final int SLOT = 2048;
    private static final int PORTS = 64;
    private static final int EV_IRQ = 1;
    private static final int EV_POLL_DONE = 2;
    private static final int EV_TIMER = 3;

    final Node node;
    final Kernel kernel;
    /** The kernel memory the buffers live in (its page table is what an IOMMU walks). */
    final AddressSpace space;
    final StackCosts costs;
    final QueuePair qp;
    private final CompletionQueue cq;
    final DmaArea tx;
    final DmaArea rx;
    private final IntArrayQueue txFree = new IntArrayQueue();
    private final int[] txInFlight;
    private final boolean[] txHeld;
    private final WorkRequest[] txFullWr;
    private final WorkRequest[] txHeaderWr;
    private final IntArrayQueue rxFree = new IntArrayQueue();
    private final WorkRequest[] rxWr;
    /** Per rx buffer: where its unread payload starts and how long it is. */
    final int[] rxOffset;
    final int[] rxLength;
    final long[] rxId;
    private int rxPosted;
    private final int irq;
    private final Tasklet poll;
    private final Completion interruptsOn;
    private long lastInterrupt = Long.MIN_VALUE / 4;
    private final Socket[] sockets = new Socket[PORTS];
    private final boolean[] timerPending = new boolean[PORTS * 2];
    private int nextPort = 1;
    private AddressHandle peerAddress;
    private CpuThread appThread;
    private final Completion txSpace;
    private long work;
    final byte[] header = new byte[FrameHeader.SIZE];
    private final byte[] copyBuffer = new byte[SLOT];
    final int maxPayload;

    final Counter framesSent;
    final Counter framesReceived;
    final Counter dataPackets;
    final Counter retransmitted;
    final Counter timeouts;
    final Counter fastRetransmits;
    final Counter outOfOrder;
    final Counter udpDroppedFull;
    final Counter udpDroppedIncomplete;
    private final Counter polls;

    /**
     * The stack of {@code node}: maps and pins its buffers, creates its queue pair and
     * interrupt line, and starts interrupt delivery.
     */
    public HostStack(Node node, StackCosts costs) {
        super(node.simulator(), node, "stack");
        this.node = node;
        this.kernel = node.kernel();
        this.costs = costs;
        this.space = kernel.createProcess(0, true);
        Nic nic = node.nic();
        ProtectionDomain pd = nic.allocatePd("stack");
        boolean iommu = nic.iommuPath() != null;
        if (iommu) {
            SharedVirtualAddressing.bind(node.iommu(), pd.id(), space);
        }
        this.tx = new DmaArea(kernel, space, nic, pd, costs.txBuffers(), iommu);
        int rxBuffers = costs.rxRing() + (int) (2 * costs.recvBuffer() / SLOT) + 2;
        this.rx = new DmaArea(kernel, space, nic, pd, rxBuffers, iommu);
        this.cq = new CompletionQueue(name() + ".cq", costs.rxRing() + 2 * costs.txBuffers() + 16);
        this.qp = nic.createQp(pd, QpType.UD, cq, cq);
        this.maxPayload = qp.mtu() - FrameHeader.SIZE;
        if (maxPayload <= 0) {
            throw new IllegalArgumentException("a " + qp.mtu() + " B frame cannot hold the " + FrameHeader.SIZE
                    + " B header (transport.mtu)");
        }
        txInFlight = new int[tx.slots];
        txHeld = new boolean[tx.slots];
        txFullWr = new WorkRequest[tx.slots];
        txHeaderWr = new WorkRequest[tx.slots];
        for (int s = 0; s < tx.slots; s++) {
            txFree.addInt(s);
            txFullWr[s] = WorkRequest.send(s, tx.address(s), qp.mtu(), tx.region.lkey());
            txHeaderWr[s] = WorkRequest.send(s, tx.address(s), FrameHeader.SIZE, tx.region.lkey());
        }
        rxWr = new WorkRequest[rx.slots];
        rxOffset = new int[rx.slots];
        rxLength = new int[rx.slots];
        rxId = new long[rx.slots];
        for (int s = 0; s < rx.slots; s++) {
            rxWr[s] = WorkRequest.recv(s, rx.address(s), SLOT, rx.region.lkey());
            rxFree.addInt(s);
        }
        refill();
        framesSent = counter("frames_sent", "frames", "frames handed to the NIC");
        framesReceived = counter("frames_received", "frames", "frames the NAPI poll took from the ring");
        dataPackets = counter("dataPackets", "frames", "frames carrying payload sent, retransmissions included");
        retransmitted = counter("retransmittedPackets", "frames", "TCP segments sent again");
        timeouts = counter("timeouts", "events", "TCP retransmission time-outs");
        fastRetransmits = counter("fast_retransmits", "events", "TCP fast retransmits on three duplicate ACKs");
        outOfOrder = counter("tcp_out_of_order", "frames", "TCP segments discarded: out of order, duplicate or no room");
        udpDroppedFull = counter("udp_dropped_full", "datagrams", "UDP datagrams dropped: receive buffer full");
        udpDroppedIncomplete = counter("udp_dropped_incomplete", "datagrams",
                "UDP datagrams dropped: a fragment was lost before reassembly");
        polls = counter("napi_polls", "runs", "NAPI poll runs");
        var cpu = node.cpu();
        this.poll = new Tasklet(name() + ".napi", cpu.core(0), (t, a) -> pollOnce(), this, EV_POLL_DONE);
        this.irq = cpu.interrupts().register(name() + ".nic", 0, (t, a) -> {
            poll.schedule(0);
            return 0;
        }, null, 0);
        this.interruptsOn = new Completion(name() + ".interrupts_on");
        this.txSpace = new Completion(name() + ".tx_space");
        interruptsOn.complete();
        // The NIC's interrupt logic: a completion in the queue raises the line while interrupts are on.
        new SimProcess(sim, this, "irq", ctx -> {
            while (true) {
                ctx.await(cq.notEmpty());
                interruptsOn.reset();
                long at = Math.max(sim.now(), lastInterrupt + costs.throttlePs());
                schedule(at - sim.now(), EV_IRQ, 0);
                ctx.await(interruptsOn);
            }
        }).daemon().start();
    }

    /** Connects a TCP socket here with one on {@code peer}; returns {this end, peer's end}. */
    public static TcpSocket[] connectTcp(HostStack a, HostStack b) {
        TcpSocket x = new TcpSocket(a, a.nextPort++);
        TcpSocket y = new TcpSocket(b, b.nextPort++);
        a.bind(x, b, y.port);
        b.bind(y, a, x.port);
        x.start(y.advertisedWindow());
        y.start(x.advertisedWindow());
        return new TcpSocket[] {x, y};
    }

    /** Connects a UDP socket here with one on {@code peer}; returns {this end, peer's end}. */
    public static UdpSocket[] connectUdp(HostStack a, HostStack b) {
        UdpSocket x = new UdpSocket(a, a.nextPort++);
        UdpSocket y = new UdpSocket(b, b.nextPort++);
        a.bind(x, b, y.port);
        b.bind(y, a, x.port);
        return new UdpSocket[] {x, y};
    }

    private void bind(Socket s, HostStack peer, int peerPort) {
        if (s.port >= PORTS) {
            throw new IllegalStateException(name() + ": no free port (" + PORTS + " sockets)");
        }
        AddressHandle to = new AddressHandle(peer.node.id(), peer.qp.qpn());
        if (peerAddress != null && !peerAddress.equals(to)) {
            throw new IllegalStateException(name() + " talks to one peer node, not " + to.node());
        }
        peerAddress = to;
        sockets[s.port] = s;
        s.connected(peer, peerPort);
    }

    /** The node. */
    public Node node() {
        return node;
    }

    /** The thread application calls run in: on the node's last core (core 0 takes the interrupts). */
    CpuThread appThread() {
        if (appThread == null) {
            appThread = node.cpu().thread(name() + ".app", node.cpu().coreCount() - 1);
        }
        return appThread;
    }

    // ------------------------------------------------------------------ work accounting

    /** Adds CPU work to the current call (a socket call, a poll run or a timer). */
    void addWork(long ps) {
        work += ps;
    }

    boolean hasWork() {
        return work > 0;
    }

    long takeWork() {
        long w = work;
        work = 0;
        return w;
    }

    /** Copies bytes between two address spaces through the kernel (CPU time is charged separately). */
    void copy(AddressSpace from, long fromVa, AddressSpace to, long toVa, int n) {
        for (int done = 0; done < n; ) {
            int c = Math.min(copyBuffer.length, n - done);
            kernel.read(from, fromVa + done, copyBuffer, 0, c);
            kernel.write(to, toVa + done, copyBuffer, 0, c);
            done += c;
        }
    }

    // ------------------------------------------------------------------ transmit buffers

    /** A free transmit buffer, or -1. */
    int allocTx() {
        return txFree.isEmpty() ? -1 : txFree.removeInt();
    }

    /** Marks whether a socket still holds buffer {@code slot} (TCP until acknowledged). */
    void holdTx(int slot, boolean held) {
        txHeld[slot] = held;
        if (!held && txInFlight[slot] == 0) {
            txFree.addInt(slot);
            Socket.signal(txSpace);
        }
    }

    /** Waits until the NIC has sent every frame handed to it and the stack holds no transmit buffer. */
    public void awaitTransmitted(org.pagefabric.sim.process.ProcessContext ctx) {
        while (txFree.size() < tx.slots) {
            Socket.await(ctx, txSpace);
        }
    }

    /** UDP datagrams dropped at this node's sockets: receive buffer full or a fragment missing. */
    public long udpDropped() {
        return udpDroppedFull.value() + udpDroppedIncomplete.value();
    }

    /** TCP fast retransmits of this node's sockets. */
    public long fastRetransmits() {
        return fastRetransmits.value();
    }

    /** Completes when a transmit buffer is freed. */
    Completion txSpace() {
        return txSpace;
    }

    /** Writes the prepared {@link #header} into buffer {@code slot}. */
    void writeHeader(int slot) {
        kernel.write(space, tx.address(slot), header, 0, FrameHeader.SIZE);
    }

    /** Hands buffer {@code slot}'s first {@code length} bytes to the NIC as one frame. */
    void transmit(int slot, int length, boolean data) {
        WorkRequest wr = length == qp.mtu() ? txFullWr[slot] : length == FrameHeader.SIZE ? txHeaderWr[slot]
                : WorkRequest.send(slot, tx.address(slot), length, tx.region.lkey());
        txInFlight[slot]++;
        qp.postSend(wr, peerAddress);
        framesSent.increment();
        if (data) {
            dataPackets.increment();
        }
        work += costs.txPerPacketPs();
    }

    // ------------------------------------------------------------------ receive ring

    /** Gives a consumed receive buffer back and refills the ring. */
    void recycle(int slot) {
        rxFree.addInt(slot);
        refill();
    }

    private void refill() {
        while (rxPosted < costs.rxRing() && !rxFree.isEmpty()) {
            qp.postRecv(rxWr[rxFree.removeInt()]);
            rxPosted++;
        }
    }

    // ------------------------------------------------------------------ interrupt and NAPI

    private long pollOnce() {
        polls.increment();
        int budget = costs.napiBudget();
        for (int n = 0; n < budget; n++) {
            WorkCompletion wc = cq.poll();
            if (wc == null) {
                break;
            }
            if (wc.opcode() == Opcode.RECV) {
                rxPosted--;
                receive((int) wc.wrId(), wc);
            } else {
                int slot = (int) wc.wrId();
                txInFlight[slot]--;
                holdTx(slot, txHeld[slot]);
            }
        }
        refill();
        return takeWork();
    }

    private void receive(int slot, WorkCompletion wc) {
        work += costs.rxPerPacketPs();
        if (wc.status() != CompletionStatus.SUCCESS || wc.bytes() < FrameHeader.SIZE) {
            recycle(slot);
            return;
        }
        framesReceived.increment();
        kernel.read(space, rx.address(slot), header, 0, FrameHeader.SIZE);
        int port = FrameHeader.port(header);
        Socket s = port < PORTS ? sockets[port] : null;
        int length = FrameHeader.length(header);
        if (s == null || length < 0 || length > wc.bytes() - FrameHeader.SIZE) {
            recycle(slot);
            return;
        }
        rxOffset[slot] = FrameHeader.SIZE;
        rxLength[slot] = length;
        if (!s.input(slot, header)) {
            recycle(slot);
        }
    }

    /** Whether completions wait or a poll is pending: frames may still reach sockets. */
    boolean receiving() {
        return cq.size() > 0 || poll.isPending() || !interruptsOn.isDone();
    }

    // ------------------------------------------------------------------ timers

    /** Makes sure a timer event for socket {@code port}, {@code kind} 0 or 1, comes no later than {@code delay}. */
    void timer(int port, int kind, long delay) {
        int k = port * 2 + kind;
        if (!timerPending[k]) {
            timerPending[k] = true;
            schedule(delay, EV_TIMER, k);
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_IRQ -> {
                lastInterrupt = sim.now();
                node.cpu().interrupts().raise(irq, 0);
            }
            case EV_POLL_DONE -> {
                if (cq.size() > 0) {
                    poll.schedule(0);
                } else {
                    interruptsOn.complete();
                }
            }
            case EV_TIMER -> {
                int k = (int) arg;
                timerPending[k] = false;
                sockets[k / 2].onTimer(k % 2);
                long w = takeWork();
                if (w > 0) {
                    node.cpu().core(0).submit(Core.TASKLET, null, w, null, null, 0, 0, null);
                }
            }
            default -> throw new IllegalArgumentException("unknown stack event " + type);
        }
    }
}
