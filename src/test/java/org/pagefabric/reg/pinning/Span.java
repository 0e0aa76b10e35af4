package org.pagefabric.reg.pinning;

/** A cached range that stands for nothing but itself, named for the tests' messages. */
final class Span extends CachedRange {
    final int id;

    Span(int id, long start, long end) {
        super(start, end);
        this.id = id;
    }

    @Override
    public String toString() {
        return "span" + id + "[" + start() + ", " + end() + ")";
    }
}
