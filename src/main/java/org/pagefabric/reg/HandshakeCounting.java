package org.pagefabric.reg;

import org.pagefabric.endpoint.Endpoint;

/**
 * A policy whose remote operations sometimes need a handshake with the target before the data
 * can move (a rendezvous pin request, a Firehose move) and sometimes go one-sided at once, and
 * that counts them per initiator, so an application can tell the two kinds of its puts apart
 * (004 Table 3: "move firehose" or "pin-put" versus "one-sided"). A policy that does not
 * implement it never hand-shakes before a put.
 */
public interface HandshakeCounting {
    /** Remote operations {@code initiator} started that needed a handshake with their target, so far. */
    long handshakes(Endpoint initiator);
}
