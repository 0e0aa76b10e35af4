package org.pagefabric.workload.synthetic;

/**
 * What one receiver expects from one sender: the content tag and length of each message, in
 * sending order, written by the sender as it posts (the out-of-band knowledge a test harness has,
 * not simulated traffic). A reliable connection delivers in order, so the k-th receive holds the
 * k-th message.
 */
final class Inbox {
    private final long[] tag;
    private final long[] length;
    private int sent;
    private int received;

    /** An inbox for {@code messages} messages. */
    Inbox(int messages) {
        this.tag = new long[messages];
        this.length = new long[messages];
    }

    /** Messages this inbox will receive. */
    int messages() {
        return tag.length;
    }

    /** The sender is about to send a message of {@code bytes} whose content is stream {@code contentTag} from 0. */
    void sending(long contentTag, long bytes) {
        tag[sent] = contentTag;
        length[sent++] = bytes;
    }

    /** Index of the message the next receive completion holds; advances. */
    int nextReceived() {
        return received++;
    }

    long tag(int k) {
        return tag[k];
    }

    long length(int k) {
        return length[k];
    }
}
