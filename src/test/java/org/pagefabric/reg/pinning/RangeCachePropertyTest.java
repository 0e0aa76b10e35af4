package org.pagefabric.reg.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.reg.pinning.RangeCache.Bound;
import org.pagefabric.reg.pinning.RangeCache.Match;
import org.pagefabric.reg.pinning.RangeCache.Overlap;
import org.pagefabric.reg.pinning.RangeCache.Recency;
import org.pagefabric.sim.RandomStream;

/**
 * Random acquire, release, evict, withdraw and invalidate sequences, under every combination of
 * rules, against a reference model that keeps plain lists and scans them: after every step the
 * cache and the model agree on what lookups find, on the victims and their order, on the recency
 * order, on the overlap walk and on what is held.
 */
class RangeCachePropertyTest {
    private static final int STEPS = 3000;
    /** Addresses are drawn from a small space, so that ranges share starts, overlap and repeat. */
    private static final int SLOTS = 48;
    private static final long UNIT = 16;

    static Stream<Arguments> rulesAndSeeds() {
        List<Arguments> out = new ArrayList<>();
        long seed = 1;
        for (Match match : Match.values()) {
            for (Overlap overlap : Overlap.values()) {
                for (Recency recency : Recency.values()) {
                    for (int i = 0; i < 3; i++) {
                        out.add(Arguments.of(match, overlap, recency, seed++));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} seed {3}")
    @MethodSource("rulesAndSeeds")
    void theCacheBehavesAsTheReferenceModel(Match match, Overlap overlap, Recency recency, long seed) {
        RandomStream random = new RandomStream(seed);
        Bound bound = switch (random.nextInt(3)) {
            case 0 -> Bound.entries(1 + random.nextInt(8));
            case 1 -> Bound.bytes((1 + random.nextInt(12)) * 2 * UNIT);
            default -> new Bound(1 + random.nextInt(8), (1 + random.nextInt(12)) * 2 * UNIT);
        };
        RangeCache<Span> cache = new RangeCache<>(match, overlap, recency, bound);
        Model model = new Model(match, overlap, recency, bound);
        List<Span> used = new ArrayList<>();
        int nextId = 0;
        for (int step = 0; step < STEPS; step++) {
            String at = "seed " + seed + " step " + step;
            int op = random.nextInt(100);
            if (op < 45) {
                // an acquisition as the caches make one: a hit, or a (merged) miss inserted after making room
                long start = random.nextInt(SLOTS) * UNIT + (random.nextBoolean(0.3) ? random.nextInt((int) UNIT) : 0);
                long end = start + (random.nextBoolean(0.1) ? 0 : 1 + random.nextInt((int) (6 * UNIT)));
                Span hit = cache.find(start, end);
                assertSame(model.find(start, end), hit, at + " find [" + start + ", " + end + ")");
                if (hit != null) {
                    cache.take(hit);
                    model.take(hit);
                    used.add(hit);
                    continue;
                }
                if (overlap == Overlap.MERGED) {
                    long from = cache.mergedStart(start, end);
                    long to = cache.mergedEnd(start, end);
                    assertEquals(model.mergedStart(start, end), from, at + " merged start");
                    assertEquals(model.mergedEnd(start, end), to, at + " merged end");
                    start = from;
                    end = to;
                    assertEquals(model.withdrawOverlapping(start, end), victims(cache, start, end), at + " merged");
                }
                boolean before = random.nextBoolean(0.5);
                if (before) {
                    assertEquals(model.evict(1, end - start, false), evictions(cache, 1, end - start, false),
                            at + " evicted to make room");
                }
                Span s = new Span(nextId++, start, end);
                cache.insert(s);
                model.insert(s);
                used.add(s);
                if (!before) {
                    assertEquals(model.evict(0, 0, false), evictions(cache, 0, 0, false), at + " evicted after");
                }
            } else if (op < 80) {
                if (used.isEmpty()) {
                    continue;
                }
                Span s = used.remove(random.nextInt(used.size()));
                boolean unused = cache.release(s);
                assertEquals(model.release(s), unused, at + " release " + s);
                if (unused && !s.cached()) {
                    cache.discard(s);
                    model.discard(s);
                }
                if (random.nextBoolean(0.5)) {
                    assertEquals(model.evict(0, 0, false), evictions(cache, 0, 0, false), at + " evicted on release");
                }
            } else if (op < 88) {
                long start = random.nextInt(SLOTS) * UNIT;
                long end = start + random.nextInt((int) (8 * UNIT));
                assertEquals(model.withdrawOverlapping(start, end), victims(cache, start, end), at + " invalidated");
            } else if (op < 93) {
                List<Span> cached = model.recency;
                if (!cached.isEmpty()) {
                    Span s = cached.get(random.nextInt(cached.size()));
                    cache.withdraw(s);
                    model.withdraw(s);
                    if (s.users() == 0) {
                        cache.discard(s);
                        model.discard(s);
                    }
                }
            } else if (op < 95) {
                assertEquals(model.evict(0, 0, true), evictions(cache, 0, 0, true), at + " evicted every idle range");
            } else {
                long start = random.nextInt(SLOTS) * UNIT + random.nextInt((int) UNIT);
                long end = start + random.nextInt((int) (8 * UNIT));
                assertEquals(model.overlapping(start, end), walk(cache, start, end), at + " overlap walk");
            }
            assertAgree(cache, model, at);
        }
    }

    /** Withdraws what overlaps, as the pin-down cache merges or invalidates: an unused range is discarded at once. */
    private static List<Span> victims(RangeCache<Span> cache, long start, long end) {
        List<Span> out = new ArrayList<>();
        long cost = cache.withdrawOverlapping(start, end, s -> {
            out.add(s);
            if (s.users() == 0) {
                cache.discard(s);
            }
            return s.length();
        });
        assertEquals(out.stream().mapToLong(CachedRange::length).sum(), cost, "the callbacks' costs are summed");
        return out;
    }

    private static List<Span> evictions(RangeCache<Span> cache, long entries, long bytes, boolean all) {
        List<Span> out = new ArrayList<>();
        ToLongFunction<Span> record = s -> {
            out.add(s);
            return s.length() + 1;
        };
        long cost = all ? cache.evictIdle(record) : cache.evictOver(entries, bytes, record);
        assertEquals(out.stream().mapToLong(s -> s.length() + 1).sum(), cost, "the callbacks' costs are summed");
        return out;
    }

    private static List<Span> walk(RangeCache<Span> cache, long start, long end) {
        List<Span> out = new ArrayList<>();
        for (Span s = cache.firstOverlapping(start, end); s != null; s = cache.nextOverlapping(s, start, end)) {
            out.add(s);
        }
        return out;
    }

    private static void assertAgree(RangeCache<Span> cache, Model model, String at) {
        List<Span> order = new ArrayList<>();
        for (Span s = cache.coldest(); s != null; s = cache.warmer(s)) {
            order.add(s);
        }
        assertEquals(model.recency, order, at + " recency order");
        assertEquals(model.held.size(), cache.heldEntries(), at + " held entries");
        assertEquals(model.held.stream().mapToLong(CachedRange::length).sum(), cache.heldBytes(), at + " held bytes");
        assertSame(model.coldestIdle(), cache.coldestIdle(), at + " coldest idle");
        for (Map.Entry<Span, Integer> u : model.users.entrySet()) {
            assertEquals((int) u.getValue(), u.getKey().users(), () -> at + " users of " + u.getKey());
            assertEquals(model.recency.contains(u.getKey()), u.getKey().cached(), () -> at + " cached " + u.getKey());
        }
    }

    /** The rules, spelled out over lists scanned from end to end. */
    private static final class Model {
        final Match match;
        final Overlap overlap;
        final Recency recency0;
        final Bound bound;
        /** Cached ranges in insertion order. */
        final List<Span> cached = new ArrayList<>();
        /** Cached ranges, least recently used first. */
        final List<Span> recency = new ArrayList<>();
        /** Ranges counted against the bound. */
        final List<Span> held = new ArrayList<>();
        final Map<Span, Integer> users = new IdentityHashMap<>();

        Model(Match match, Overlap overlap, Recency recency, Bound bound) {
            this.match = match;
            this.overlap = overlap;
            this.recency0 = recency;
            this.bound = bound;
        }

        Span find(long start, long end) {
            if (match == Match.EXACT) {
                return cached.stream().filter(s -> s.start() == start && s.end() == end).findFirst().orElse(null);
            }
            long floor = Long.MIN_VALUE;
            for (Span s : cached) {
                if (s.start() <= start) {
                    floor = Math.max(floor, s.start());
                }
            }
            for (Span s : cached) {
                if (s.start() == floor && s.start() <= start && end <= s.end()) {
                    return s;
                }
            }
            return null;
        }

        /** Cached ranges overlapping, by start address and then insertion order. */
        List<Span> overlapping(long start, long end) {
            return cached.stream().filter(s -> s.start() < end && start < s.end())
                    .sorted(Comparator.comparingLong(Span::start)).toList();
        }

        long mergedStart(long start, long end) {
            return overlapping(start, end).stream().mapToLong(Span::start).reduce(start, Math::min);
        }

        long mergedEnd(long start, long end) {
            return overlapping(start, end).stream().mapToLong(Span::end).reduce(end, Math::max);
        }

        void insert(Span s) {
            cached.add(s);
            recency.add(s);
            held.add(s);
            users.put(s, 1);
        }

        void take(Span s) {
            users.merge(s, 1, Integer::sum);
            if (recency0 == Recency.LAST_ACQUIRE) {
                recency.remove(s);
                recency.add(s);
            }
        }

        boolean release(Span s) {
            int left = users.merge(s, -1, Integer::sum);
            if (left == 0 && recency0 == Recency.LAST_RELEASE && recency.contains(s)) {
                recency.remove(s);
                recency.add(s);
            }
            return left == 0;
        }

        void withdraw(Span s) {
            cached.remove(s);
            recency.remove(s);
        }

        void discard(Span s) {
            held.remove(s);
            users.remove(s); // gone for good: nothing left to compare
        }

        List<Span> withdrawOverlapping(long start, long end) {
            List<Span> out = overlapping(start, end);
            for (Span s : out) {
                withdraw(s);
                if (users.get(s) == 0) {
                    discard(s);
                }
            }
            return out;
        }

        boolean exceeds(long entries, long bytes) {
            long heldBytes = held.stream().mapToLong(CachedRange::length).sum();
            return held.size() + entries > bound.maxEntries() || heldBytes + bytes > bound.maxBytes();
        }

        List<Span> evict(long entries, long bytes, boolean all) {
            List<Span> out = new ArrayList<>();
            for (Span s : List.copyOf(recency)) {
                if (!all && !exceeds(entries, bytes)) {
                    break;
                }
                if (users.get(s) == 0) {
                    withdraw(s);
                    discard(s);
                    out.add(s);
                }
            }
            return out;
        }

        Span coldestIdle() {
            return recency.stream().filter(s -> users.get(s) == 0).findFirst().orElse(null);
        }
    }
}
