package org.pagefabric.reg.openmx;

/**
 * One Open-MX message between two ranks, from the send to its completion: an eager message,
 * or a rendezvous with its pull and notify. The wire messages of its protocol (RNDV, PULL,
 * pull replies, NOTIFY) each name it through the sending driver's message table.
 */
final class Message {
    /** Wire kinds, carried as the transport opcode. */
    static final int EAGER = 1;
    static final int RNDV = 2;
    static final int PULL = 3;
    static final int PULL_DATA = 4;
    static final int NOTIFY = 5;

    final Driver from;
    final Driver to;
    final long length;
    final long sendWrId;
    /** The match info the sender gave: a receive takes it only if posted with the same. */
    final long matchBits;
    /** Core of the sending process: pull replies and bottom halves of this message run on it unless interrupts are bound elsewhere. */
    final int core;
    /** Eager: the slot of the sender's ring (and of the receiver's matching ring) carrying the data. */
    int slot = -1;
    /** Rendezvous: the sender's region. */
    UserRegion source;
    /** Rendezvous: the receiver's region, once matched. */
    UserRegion target;
    /** The receive it matched, once matched. */
    Posted receive;
    /** Rendezvous: when the sender's driver posted the RNDV, for the handshake round trip; -1 before. */
    long rndvAtPs = -1;
    /** Rendezvous, sender: whether the receiver's pull request arrived. */
    boolean pullRequested;
    /** Rendezvous, sender: bytes of the message already handed to the wire as pull replies. */
    long served;
    /** Rendezvous, sender: pull replies posted whose transport completion has not come yet. */
    int repliesInFlight;
    /** Rendezvous, sender: whether the receiver's notify arrived (its source may be released once no reply is in flight). */
    boolean notified;
    /** Rendezvous, receiver: bytes of the message whose pull replies all arrived. */
    long pulled;

    Message(Driver from, Driver to, long length, long sendWrId, int core, long matchBits) {
        this.matchBits = matchBits;
        this.from = from;
        this.to = to;
        this.length = length;
        this.sendWrId = sendWrId;
        this.core = core;
    }

    /** A receive posted to the library and not yet matched or completed. */
    record Posted(long va, long length, long wrId, int core, long matchBits) {
    }
}
