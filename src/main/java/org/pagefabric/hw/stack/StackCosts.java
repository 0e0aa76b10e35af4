package org.pagefabric.hw.stack;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.hw.param.StackParameters;
import org.pagefabric.sim.Time;

/**
 * What the host stack's work costs and how large its buffers are, all from a profile
 * ({@code stack.*} and {@code os.syscall}).
 *
 * @param syscallPs         entering and leaving the kernel for a send or receive call
 * @param txPerPacketPs     CPU time to send one frame
 * @param rxPerPacketPs     CPU time to receive one frame in the NAPI poll
 * @param copyBytesPerSecond rate of the user/socket buffer copies
 * @param throttlePs        minimum interval between two NIC interrupts
 * @param napiBudget        completions one NAPI poll handles
 * @param rxRing            receive descriptors posted to the NIC
 * @param txBuffers         transmit buffers of the node
 * @param sendBuffer        bytes a socket holds unsent or unacknowledged
 * @param recvBuffer        a socket's receive buffer, charged {@link HostStack#SLOT} per frame buffer
 * @param initialWindow     TCP's initial congestion window, in segments
 * @param delayedAckPs      TCP's delayed acknowledgement timer
 * @param rtoPs             TCP's retransmission time-out before back-off
 */
public record StackCosts(long syscallPs, long txPerPacketPs, long rxPerPacketPs, long copyBytesPerSecond,
                         long throttlePs, int napiBudget, int rxRing, int txBuffers, long sendBuffer, long recvBuffer,
                         int initialWindow, long delayedAckPs, long rtoPs) {
    /** Validates the values. */
    public StackCosts {
        if (copyBytesPerSecond <= 0 || napiBudget <= 0 || rxRing <= 0 || txBuffers < 4 || initialWindow <= 0
                || rtoPs <= 0 || sendBuffer < HostStack.SLOT || recvBuffer < HostStack.SLOT) {
            throw new IllegalArgumentException("host stack parameters out of range: copy " + copyBytesPerSecond
                    + " B/s, budget " + napiBudget + ", rx ring " + rxRing + ", tx buffers " + txBuffers
                    + " (at least 4), initial window " + initialWindow + ", rto " + rtoPs + " ps, buffers "
                    + sendBuffer + "/" + recvBuffer + " B (at least " + HostStack.SLOT + ")");
        }
    }

    /** The values of {@code profile}. */
    public static StackCosts of(Profile profile) {
        return new StackCosts(profile.time(OsParameters.SYSCALL), profile.time(StackParameters.TX_PER_PACKET),
                profile.time(StackParameters.RX_PER_PACKET), profile.bytesPerSecond(StackParameters.COPY_BANDWIDTH),
                profile.time(StackParameters.INTERRUPT_THROTTLE), profile.intCount(StackParameters.NAPI_BUDGET),
                profile.intCount(StackParameters.RX_RING), profile.intCount(StackParameters.TX_BUFFERS),
                profile.size(StackParameters.SEND_BUFFER), profile.size(StackParameters.RECV_BUFFER),
                profile.intCount(StackParameters.TCP_INITIAL_WINDOW), profile.time(StackParameters.TCP_DELAYED_ACK),
                profile.time(StackParameters.TCP_RTO));
    }

    /** CPU time to copy {@code bytes} between a user buffer and socket buffers. */
    public long copyPs(long bytes) {
        return (long) Math.ceil(bytes * (double) Time.S / copyBytesPerSecond);
    }
}
