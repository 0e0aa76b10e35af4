package org.pagefabric.hw.mem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TagSegmentsTest {
    private static final int PAGE = PhysicalMemory.PAGE_SIZE;

    /** A run as the model keeps it: offset, length, tag, stream position of its first byte. */
    private record Run(int off, int len, long tag, long pos) {
        int end() {
            return off + len;
        }
    }

    @Test
    void writesAndClearsLeaveTheRunsTheBytesAndTheFootprintOfClearThenInsert() {
        SplittableRandom rnd = new SplittableRandom(30);
        for (int trial = 0; trial < 400; trial++) {
            int off0 = rnd.nextInt(PAGE);
            int len0 = 1 + rnd.nextInt(PAGE - off0);
            TagSegments t = new TagSegments(off0, len0, 7, 0);
            List<Run> model = new ArrayList<>(List.of(new Run(off0, len0, 7, 0)));
            byte[] bytes = new byte[PAGE];
            ContentTag.fill(7, 0, bytes, off0, len0);
            for (int op = 0; op < 60 && !model.isEmpty(); op++) {
                // offsets on a coarse grid most of the time, so that runs meet, split and cover each other
                int off = rnd.nextInt(4) == 0 ? rnd.nextInt(PAGE) : 512 * rnd.nextInt(8);
                int len = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(PAGE - off) : Math.min(PAGE - off, 512 * (1 + rnd.nextInt(3)));
                if (rnd.nextInt(5) == 0) {
                    boolean done = t.clear(off, off + len);
                    assertEquals(clearModel(model, off, off + len), done, "clear's answer");
                    if (done) {
                        java.util.Arrays.fill(bytes, off, off + len, (byte) 0);
                    }
                } else {
                    long tag = 100 + op;
                    long pos = rnd.nextLong(1 << 20);
                    boolean done = t.add(off, len, tag, pos);
                    assertEquals(addModel(model, off, len, tag, pos), done, "add's answer");
                    if (done) {
                        ContentTag.fill(tag, pos, bytes, off, len);
                        assertEquals(24 + 16 + 8L * 3 * model.size(), t.footprintBytes(), "an array of exactly the runs");
                    }
                }
                assertEquals(model.size(), t.count());
                for (int i = 0; i < model.size(); i++) {
                    Run r = model.get(i);
                    assertEquals(r, new Run(t.off(i), t.len(i), t.tag(i), t.pos(i)), "run " + i);
                }
                byte[] rendered = new byte[PAGE];
                t.render(0, PAGE, rendered, 0);
                assertArrayEquals(bytes, rendered, "the page's bytes");
            }
        }
    }

    @Test
    void aFullPageWrittenOverAndOverStaysOneRun() {
        TagSegments t = new TagSegments(0, PAGE, 1, 0);
        for (int i = 0; i < 100; i++) {
            assertEquals(true, t.add(0, PAGE, 2 + i, 4096L * i));
        }
        assertEquals(1, t.count());
        assertEquals(101, t.tag(0));
        assertEquals(4096L * 99, t.pos(0));
        assertEquals(24 + 16 + 24, t.footprintBytes());
    }

    /** The bytes {@code [s, e)} cut out of the runs; false (unchanged) past the segment limit. */
    private static boolean clearModel(List<Run> model, int s, int e) {
        int splits = 0;
        for (Run r : model) {
            if (r.off() < s && r.end() > e) {
                splits++;
            }
        }
        if (model.size() + splits > TagSegments.MAX_SEGMENTS) {
            return false;
        }
        List<Run> out = new ArrayList<>();
        for (Run r : model) {
            if (r.end() <= s || r.off() >= e) {
                out.add(r);
                continue;
            }
            if (r.off() < s) {
                out.add(new Run(r.off(), s - r.off(), r.tag(), r.pos()));
            }
            if (r.end() > e) {
                out.add(new Run(e, r.end() - e, r.tag(), r.pos() + (e - r.off())));
            }
        }
        model.clear();
        model.addAll(out);
        return true;
    }

    private static boolean addModel(List<Run> model, int off, int len, long tag, long pos) {
        List<Run> saved = new ArrayList<>(model);
        if (!clearModel(model, off, off + len) || model.size() + 1 > TagSegments.MAX_SEGMENTS) {
            model.clear();
            model.addAll(saved);
            return false;
        }
        int at = 0;
        while (at < model.size() && model.get(at).off() < off) {
            at++;
        }
        model.add(at, new Run(off, len, tag, pos));
        return true;
    }
}
