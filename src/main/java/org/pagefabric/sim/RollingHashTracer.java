package org.pagefabric.sim;

import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A determinism fingerprint of a run: a rolling 64-bit hash over every dispatched event. Two
 * runs of the same model with the same seed must end with the same {@link #hash()}; any
 * difference in event times, order, receivers, bands or types changes it (up to the 2^-64
 * chance of a collision).
 *
 * <p>The hash must be comparable across JVM runs, so it never uses identity hash codes or
 * object addresses. The specified algorithm, so that a recorded fingerprint stays valid:
 * <pre>
 *   h0 = 0x9E3779B97F4A7C15
 *   for each event:
 *     h = mix64(h ^ time)
 *     h = mix64(h ^ id(handler))
 *     h = mix64(h ^ (band &lt;&lt; 32 | type &amp; 0xFFFFFFFF))
 * </pre>
 * where {@code mix64} is {@link RandomStream#mix64} (bijective, so every step keeps the whole
 * history), and {@code id(handler)} is the 64-bit FNV-1a hash of the UTF-8 bytes of:
 * <ul>
 *   <li>{@link Component#name()} for a component: names are the model's stable identities;</li>
 *   <li>the class name for any other handler. For lambdas and other hidden classes the JVM
 *       appends a suffix ({@code Outer$$Lambda/0x...}) that changes from one JVM run to the
 *       next, so everything from {@code "$$Lambda"} or {@code '/'} on is dropped: all lambdas
 *       declared in one class then share one identity, which is the price of stability. Models
 *       whose events must be told apart by receiver should use components.</li>
 * </ul>
 * The band enters the hash as well as time, receiver and type: it is part of the event order
 * and just as deterministic.
 *
 * <p>Like the simulator it observes, a tracer is confined to one thread.
 */
public final class RollingHashTracer implements EventTracer {
    /** The hash before any event (the 64-bit golden ratio, an arbitrary non-zero start). */
    public static final long INITIAL = 0x9E3779B97F4A7C15L;

    private static final ClassValue<Long> CLASS_IDS = new ClassValue<>() {
        @Override
        protected Long computeValue(Class<?> type) {
            return fnv1a64(stableClassName(type));
        }
    };

    /** Components seen so far: their names are hashed once, not on every event. */
    private final Map<Component, Long> componentIds = new IdentityHashMap<>();
    private long hash = INITIAL;
    private long events;

    /** A tracer that has seen no event. */
    public RollingHashTracer() {
    }

    @Override
    public void onEvent(long time, int band, EventHandler handler, int type) {
        long h = RandomStream.mix64(hash ^ time);
        h = RandomStream.mix64(h ^ identity(handler));
        hash = RandomStream.mix64(h ^ (((long) band << 32) | (type & 0xFFFF_FFFFL)));
        events++;
    }

    /** The hash of every event seen so far, {@link #INITIAL} before the first. */
    public long hash() {
        return hash;
    }

    /** The number of events seen. */
    public long events() {
        return events;
    }

    /** The stable identity of a handler, as entered into the hash. */
    public long identity(EventHandler handler) {
        if (handler instanceof Component c) {
            Long id = componentIds.get(c);
            if (id == null) {
                id = fnv1a64(c.name());
                componentIds.put(c, id);
            }
            return id;
        }
        return CLASS_IDS.get(handler.getClass());
    }

    /** The class name without the per-JVM-run suffix of hidden classes (lambdas). */
    static String stableClassName(Class<?> type) {
        String name = type.getName();
        int lambda = name.indexOf("$$Lambda");
        if (lambda >= 0) {
            return name.substring(0, lambda + "$$Lambda".length());
        }
        int slash = name.indexOf('/');
        return slash >= 0 ? name.substring(0, slash) : name;
    }

    /** 64-bit FNV-1a over the UTF-8 bytes of {@code s}. */
    static long fnv1a64(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    @Override
    public String toString() {
        return String.format("%016x after %d events", hash, events);
    }
}
