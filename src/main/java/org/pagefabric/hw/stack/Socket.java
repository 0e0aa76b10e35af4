package org.pagefabric.hw.stack;

import org.agrona.collections.IntArrayQueue;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * What TCP and UDP sockets share: their port on the stack, the peer they are connected to, the
 * queue of received frame buffers (each charged {@link HostStack#SLOT} against the receive
 * buffer, as Linux charges an skb's truesize) and the blocking of the calling process.
 */
public abstract sealed class Socket permits TcpSocket, UdpSocket {
    final HostStack stack;
    final int port;
    HostStack peerStack;
    int peerPort = -1;
    /** Received buffers queued for the application, in order; offset and length per buffer in the stack. */
    final IntArrayQueue queue = new IntArrayQueue();
    long queuedTruesize;
    final Completion readable;
    final Completion writable;
    private final Completion cpuDone;
    private CpuThread thread;

    Socket(HostStack stack, int port) {
        this.stack = stack;
        this.port = port;
        String n = stack.name() + ".socket" + port;
        this.readable = new Completion(n + ".readable");
        this.writable = new Completion(n + ".writable");
        this.cpuDone = new Completion(n + ".cpu");
    }

    /** The stack's port of this socket. */
    public int port() {
        return port;
    }

    /** A frame for this socket in rx buffer {@code slot}; returns whether the socket keeps the buffer. */
    abstract boolean input(int slot, byte[] header);

    /** A timer of this socket expired ({@code kind} as armed). */
    abstract void onTimer(int kind);

    void connected(HostStack peer, int peerPort) {
        this.peerStack = peer;
        this.peerPort = peerPort;
    }

    /** Runs the stack's accumulated work for this call on the calling process's core, and waits for it. */
    final void charge(ProcessContext ctx) {
        long cost = stack.takeWork();
        if (cost <= 0) {
            return;
        }
        if (thread == null) {
            thread = stack.appThread();
        }
        if (cpuDone.isDone()) {
            cpuDone.reset();
        }
        thread.run(cost, cpuDone, 0);
        ctx.await(cpuDone);
    }

    static void signal(Completion c) {
        if (!c.isDone()) {
            c.complete();
        }
    }

    static void await(ProcessContext ctx, Completion c) {
        if (c.isDone()) {
            c.reset();
        }
        ctx.await(c);
    }

    /** Copies {@code n} bytes of rx buffer {@code slot} from {@code offset} to {@code user} at {@code va}. */
    final void copyOut(AddressSpace user, long va, int slot, int offset, int n) {
        stack.copy(stack.space, stack.rx.address(slot) + offset, user, va, n);
    }
}
