package org.pagefabric.report.timeline;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a timeline as SVG for a page: one lane per rank, NIC and kernel (each node's rank, then its
 * NIC, then its kernel), spans coloured by kind, a line of the job's pinned memory under them, a
 * time axis in the unit that suits the span, and a legend.
 *
 * <p>The drawing's size does not grow with the events: the time range is divided into one column
 * per pixel, each lane's spans add the time they cover to the columns they fall in, and a column
 * takes the colour of the kind that fills most of it. Each run of columns of one kind is one
 * rectangle, so a lane has at most one per pixel column. A span narrower than a column is merged
 * into it (counted in {@link TimelineFigure#merged()}); a wider one keeps its extent to the pixel.
 */
final class TimelineSvg {
    /** Width of the whole drawing in pixels. */
    static final int WIDTH = 1000;
    /** Left margin for the lane labels. */
    static final int LABELS = 120;
    /** Pixel columns of time: the width less the labels and a right margin. */
    static final int COLUMNS = WIDTH - LABELS - 20;
    private static final int TOP = 8;
    private static final int LANE = 20;
    private static final int BAR = 14;
    private static final int COUNTER = 44;
    private static final String BACKGROUND = "#f3f5f8";
    /** The kinds drawn as spans, in legend order; a column's tie goes to the earlier one. */
    private static final List<TimelineKind> SPANS = List.of(TimelineKind.REGISTRATION, TimelineKind.PIN,
            TimelineKind.FAULT, TimelineKind.TRANSFER, TimelineKind.FAILED_TRANSFER, TimelineKind.WAIT,
            TimelineKind.COMPUTE);
    private static final long[] UNITS = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
    private static final String[] UNIT_NAMES = {"s", "ms", "\u00b5s", "ns", "ps"};

    private final TimelineEvents events;
    private final int[] nodeOfRank;
    private final int nodes;

    /**
     * @param events     the events kept
     * @param nodeOfRank each rank's node
     * @param nodes      nodes in the cluster, each with a NIC and a kernel
     */
    TimelineSvg(TimelineEvents events, int[] nodeOfRank, int nodes) {
        this.events = events;
        this.nodeOfRank = nodeOfRank.clone();
        this.nodes = nodes;
    }

    TimelineFigure draw() {
        List<Integer> tracks = laneTracks();
        java.util.Map<Integer, Integer> laneOf = new java.util.HashMap<>();
        for (int i = 0; i < tracks.size(); i++) {
            laneOf.put(tracks.get(i), i);
        }
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (int i = 0; i < events.size(); i++) {
            long s = events.start(i);
            t0 = Math.min(t0, s);
            t1 = Math.max(t1, events.kind(i) == TimelineKind.PINNED ? s : s + events.duration(i));
        }
        if (events.size() == 0) {
            t0 = 0;
            t1 = 1;
        }
        if (t1 <= t0) {
            t1 = t0 + 1;
        }
        double columnPs = (t1 - t0) / (double) COLUMNS;
        int kinds = SPANS.size();
        double[][] partial = new double[tracks.size()][kinds * COLUMNS];
        int[][] full = new int[tracks.size()][kinds * (COLUMNS + 1)];
        int[][] perKind = new int[tracks.size()][kinds];
        int spans = 0;
        int merged = 0;
        for (int i = 0; i < events.size(); i++) {
            TimelineKind k = events.kind(i);
            Integer lane = laneOf.get(events.track(i));
            if (k == TimelineKind.PINNED || lane == null) {
                continue;
            }
            spans++;
            int ki = SPANS.indexOf(k);
            perKind[lane][ki]++;
            double xs = (events.start(i) - t0) / columnPs;
            double xe = (events.start(i) + events.duration(i) - t0) / columnPs;
            if (xe - xs < 1) {
                merged++;
            }
            int c0 = Math.min(COLUMNS - 1, (int) Math.floor(xs));
            int c1 = Math.min(COLUMNS - 1, Math.max(c0, (int) Math.ceil(xe) - 1));
            double[] p = partial[lane];
            if (c0 == c1) {
                // an instant still marks its column
                p[ki * COLUMNS + c0] += Math.max(xe - xs, 1e-9);
            } else {
                p[ki * COLUMNS + c0] += c0 + 1 - xs;
                p[ki * COLUMNS + c1] += Math.min(1, xe - c1);
                full[lane][ki * (COLUMNS + 1) + c0 + 1]++;
                full[lane][ki * (COLUMNS + 1) + c1]--;
            }
        }
        int height = TOP + tracks.size() * LANE + 10 + COUNTER + 40 + legendHeight();
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<svg class=\"timeline\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\" role=\"img\">\n");
        b.append("<title>Timeline: ").append(tracks.size()).append(" lanes, ").append(spans).append(" spans</title>\n");
        int rectangles = 0;
        for (int lane = 0; lane < tracks.size(); lane++) {
            rectangles += lane(b, lane, tracks.get(lane), partial[lane], full[lane], perKind[lane]);
        }
        int counterTop = TOP + tracks.size() * LANE + 10;
        counter(b, counterTop, t0, columnPs);
        int axisTop = counterTop + COUNTER;
        axis(b, axisTop, t0, t1);
        legend(b, axisTop + 40);
        b.append("</svg>");
        return new TimelineFigure(b.toString(), tracks.size(), spans, merged, events.size(), events.dropped(),
                events.capacity(), rectangles, columnPs);
    }

    /** Each node's ranks, then its NIC, then its kernel. */
    private List<Integer> laneTracks() {
        List<Integer> out = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            for (int r = 0; r < nodeOfRank.length; r++) {
                if (nodeOfRank[r] == n) {
                    out.add(Tracks.rank(r));
                }
            }
            out.add(Tracks.nic(n));
            out.add(Tracks.kernel(n));
        }
        return out;
    }

    private String laneName(int track) {
        if (track >= Tracks.KERNEL_BASE) {
            return "node " + (track - Tracks.KERNEL_BASE) + " kernel";
        }
        if (track >= Tracks.NIC_BASE) {
            return "node " + (track - Tracks.NIC_BASE) + " NIC";
        }
        return "rank " + track + " (node " + nodeOfRank[track] + ")";
    }

    /** One lane: label, background, and a rectangle per run of columns one kind fills most; returns them. */
    private int lane(StringBuilder b, int lane, int track, double[] partial, int[] full, int[] perKind) {
        int kinds = SPANS.size();
        int y = TOP + lane * LANE;
        String name = laneName(track);
        b.append("<g class=\"lane\" data-track=\"").append(escape(name)).append("\">\n<title>").append(escape(name))
                .append(':');
        boolean any = false;
        for (int k = 0; k < kinds; k++) {
            if (perKind[k] > 0) {
                b.append(any ? ", " : " ").append(perKind[k]).append(' ').append(SPANS.get(k).label());
                any = true;
            }
        }
        b.append(any ? " spans" : " no spans").append("</title>\n");
        b.append("<text x=\"").append(LABELS - 6).append("\" y=\"").append(y + BAR - 3)
                .append("\" text-anchor=\"end\">").append(escape(name)).append("</text>\n");
        b.append("<rect x=\"").append(LABELS).append("\" y=\"").append(y).append("\" width=\"").append(COLUMNS)
                .append("\" height=\"").append(BAR).append("\" fill=\"").append(BACKGROUND).append("\"/>\n");
        int[] running = new int[kinds];
        int runKind = -1;
        int runStart = 0;
        int rects = 0;
        for (int c = 0; c <= COLUMNS; c++) {
            int best = -1;
            if (c < COLUMNS) {
                double bestW = 0;
                for (int k = 0; k < kinds; k++) {
                    running[k] += full[k * (COLUMNS + 1) + c];
                    double w = partial[k * COLUMNS + c] + running[k];
                    if (w > bestW) {
                        bestW = w;
                        best = k;
                    }
                }
            }
            if (best != runKind) {
                if (runKind >= 0) {
                    TimelineKind k = SPANS.get(runKind);
                    b.append("<rect class=\"span ").append(k.category()).append("\" x=\"").append(LABELS + runStart)
                            .append("\" y=\"").append(y).append("\" width=\"").append(c - runStart)
                            .append("\" height=\"").append(BAR).append("\" fill=\"").append(k.colour())
                            .append("\"/>\n");
                    rects++;
                }
                runKind = best;
                runStart = c;
            }
        }
        b.append("</g>\n");
        return rects;
    }

    /** The job's pinned memory as a step line, at each column the most it held there. */
    private void counter(StringBuilder b, int top, long t0, double columnPs) {
        long max = 0;
        int samples = 0;
        for (int i = 0; i < events.size(); i++) {
            if (events.kind(i) == TimelineKind.PINNED) {
                max = Math.max(max, events.duration(i));
                samples++;
            }
        }
        int h = COUNTER - 14;
        String colour = TimelineKind.PINNED.colour();
        b.append("<g class=\"counter\" data-track=\"pinned memory\">\n<title>pinned memory: ").append(samples)
                .append(" samples, at most ").append(mib(max)).append(" MiB</title>\n");
        b.append("<text x=\"").append(LABELS - 6).append("\" y=\"").append(top + 11)
                .append("\" text-anchor=\"end\">pinned memory</text>\n");
        b.append("<text x=\"").append(LABELS - 6).append("\" y=\"").append(top + 24)
                .append("\" text-anchor=\"end\" fill=\"#555\">up to ").append(mib(max)).append(" MiB</text>\n");
        b.append("<line x1=\"").append(LABELS).append("\" y1=\"").append(top + h).append("\" x2=\"")
                .append(LABELS + COLUMNS).append("\" y2=\"").append(top + h).append("\" stroke=\"#ccc\"/>\n");
        if (samples == 0) {
            b.append("<text x=\"").append(LABELS + 6).append("\" y=\"").append(top + h - 4)
                    .append("\" fill=\"#555\">no sample of pinned memory</text>\n</g>\n");
            return;
        }
        long[] most = new long[COLUMNS];
        long[] last = new long[COLUMNS];
        boolean[] has = new boolean[COLUMNS];
        for (int i = 0; i < events.size(); i++) {
            if (events.kind(i) == TimelineKind.PINNED) {
                int c = Math.min(COLUMNS - 1, (int) ((events.start(i) - t0) / columnPs));
                long v = events.duration(i);
                most[c] = has[c] ? Math.max(most[c], v) : v;
                last[c] = v;
                has[c] = true;
            }
        }
        b.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.5\" points=\"");
        boolean first = true;
        double carry = 0;
        for (int c = 0; c < COLUMNS; c++) {
            if (!has[c]) {
                continue;
            }
            int x = LABELS + c;
            if (!first) {
                point(b, x, yOf(carry, max, top, h));
            }
            point(b, x, yOf(most[c], max, top, h));
            point(b, x + 1, yOf(most[c], max, top, h));
            if (last[c] != most[c]) {
                point(b, x + 1, yOf(last[c], max, top, h));
            }
            carry = last[c];
            first = false;
        }
        point(b, LABELS + COLUMNS, yOf(carry, max, top, h));
        b.setLength(b.length() - 1);
        b.append("\"/>\n</g>\n");
    }

    private static double yOf(double v, long max, int top, int h) {
        return max == 0 ? top + h : top + h - v / max * (h - 2);
    }

    private static void point(StringBuilder b, int x, double y) {
        b.append(x).append(',').append(String.format(Locale.ROOT, "%.1f", y)).append(' ');
    }

    /** Ticks at 1, 2 or 5 times a power of ten, labelled in the largest unit the step is a whole number of. */
    private void axis(StringBuilder b, int top, long t0, long t1) {
        double raw = (t1 - t0) / 8.0;
        double mag = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
        long step = (long) (raw <= mag ? mag : raw <= 2 * mag ? 2 * mag : raw <= 5 * mag ? 5 * mag : 10 * mag);
        step = Math.max(1, step);
        int u = 0;
        while (UNITS[u] > step) {
            u++;
        }
        b.append("<g class=\"axis\">\n<line x1=\"").append(LABELS).append("\" y1=\"").append(top).append("\" x2=\"")
                .append(LABELS + COLUMNS).append("\" y2=\"").append(top).append("\" stroke=\"#333\"/>\n");
        double scale = COLUMNS / (double) (t1 - t0);
        for (long t = (t0 + step - 1) / step * step; t <= t1; t += step) {
            double x = LABELS + (t - t0) * scale;
            b.append("<line x1=\"").append(String.format(Locale.ROOT, "%.1f", x)).append("\" y1=\"").append(top)
                    .append("\" x2=\"").append(String.format(Locale.ROOT, "%.1f", x)).append("\" y2=\"")
                    .append(top + 5).append("\" stroke=\"#333\"/>\n<text class=\"tick\" x=\"")
                    .append(String.format(Locale.ROOT, "%.1f", x)).append("\" y=\"").append(top + 17)
                    .append("\" text-anchor=\"middle\">").append(decimal(t, UNITS[u])).append("</text>\n");
        }
        b.append("<text class=\"axis-title\" x=\"").append(LABELS + COLUMNS / 2).append("\" y=\"").append(top + 33)
                .append("\" text-anchor=\"middle\">simulated time (").append(UNIT_NAMES[u]).append(")</text>\n</g>\n");
    }

    /** The legend's rows times their height: items wrap at the drawing's width. */
    private static int legendHeight() {
        int x = LABELS;
        int rows = 1;
        for (TimelineKind k : SPANS) {
            int w = legendWidth(k.label());
            if (x + w > WIDTH) {
                x = LABELS;
                rows++;
            }
            x += w;
        }
        return (x + legendWidth("pinned memory") > WIDTH ? rows + 1 : rows) * 18;
    }

    /** An item's width: swatch, gap, and the label at about 6.5 pixels a character. */
    private static int legendWidth(String label) {
        return 30 + (int) Math.ceil(label.length() * 6.5);
    }

    private void legend(StringBuilder b, int top) {
        b.append("<g class=\"legend\">\n");
        int x = LABELS;
        int y = top;
        for (TimelineKind k : SPANS) {
            int w = legendWidth(k.label());
            if (x + w > WIDTH) {
                x = LABELS;
                y += 18;
            }
            b.append("<rect class=\"legend-item\" x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"12\""
                    + " height=\"12\" fill=\"").append(k.colour()).append("\"/><text x=\"").append(x + 16)
                    .append("\" y=\"").append(y + 10).append("\">").append(escape(k.label())).append("</text>\n");
            x += w;
        }
        String label = "pinned memory";
        if (x + legendWidth(label) > WIDTH) {
            x = LABELS;
            y += 18;
        }
        b.append("<line class=\"legend-item\" x1=\"").append(x).append("\" y1=\"").append(y + 6).append("\" x2=\"")
                .append(x + 12).append("\" y2=\"").append(y + 6).append("\" stroke=\"")
                .append(TimelineKind.PINNED.colour()).append("\" stroke-width=\"2\"/><text x=\"").append(x + 16)
                .append("\" y=\"").append(y + 10).append("\">").append(label).append("</text>\n</g>\n");
    }

    /** {@code value / unit} in plain decimal digits, without trailing zeros. */
    static String decimal(long value, long unit) {
        return new BigDecimal(value).divide(new BigDecimal(unit)).stripTrailingZeros().toPlainString();
    }

    /** A time in picoseconds in the largest unit it is at least one of, to three significant digits. */
    static String duration(double ps) {
        int u = 0;
        while (u < UNITS.length - 1 && UNITS[u] > ps) {
            u++;
        }
        return new BigDecimal(ps / UNITS[u]).round(new MathContext(3)).stripTrailingZeros().toPlainString() + " "
                + UNIT_NAMES[u];
    }

    /** Bytes in MiB to three significant digits. */
    static String mib(long bytes) {
        return new BigDecimal(bytes / (double) (1 << 20)).round(new MathContext(3)).stripTrailingZeros()
                .toPlainString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
