package org.pagefabric.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Figures from tidy rows, drawn with XChart as PNG or SVG in the style of the seeds' figures: message
 * sizes on a base-2 axis labelled 8, 64, 1K, 64K, 1M; axis titles with units derived from the column
 * names; one line with its own colour and marker per series, and a legend.
 *
 * <p>Each point is the mean of the rows sharing its (series, x); where a point has more than one
 * repetition the plot carries error bars of plus or minus one sample standard deviation ({@link
 * PlotData}). Standard deviation rather than min/max because XChart draws symmetric error bars only.
 * On a logarithmic y axis a bar that would reach zero or below is shortened on both sides to 99.9% of the
 * mean, because log(0) cannot be drawn; the SVG's description says so when it happens.
 *
 * <p>Output is deterministic: the same rows and spec give byte-identical PNG and SVG on the same machine.
 * XChart draws text as glyph outlines, so the SVG holds no {@code <text>}; its {@code <title>},
 * {@code <desc>} and {@code aria-label} carry the chart title, axis titles and series names instead.
 * Those outlines come from the installed fonts, so a machine with different fonts produces a different
 * (equally deterministic) file.
 */
public final class Plots {
    /** Default width of a figure, in pixels. */
    public static final int WIDTH = 800;
    /** Default height of a figure, in pixels. */
    public static final int HEIGHT = 500;

    /**
     * Series colours: the Okabe-Ito palette, distinguishable with the common colour-vision deficiencies,
     * then Paul Tol's muted and vibrant colours, so that a comparison of every policy (about twenty
     * series) repeats none; opaque so that a series' colour is exactly the same in the legend, lines
     * and markers.
     */
    static final Color[] PALETTE = {
        new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
        new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0x8C564B),
        new Color(0x332288), new Color(0x117733), new Color(0x44AA99), new Color(0x882255),
        new Color(0x999933), new Color(0xAA4499), new Color(0xEE3377), new Color(0x004488),
        new Color(0x997700), new Color(0x6699CC), new Color(0x994455), new Color(0x6A3D9A),
        new Color(0xEE7733), new Color(0x33BBEE), new Color(0x66CCEE), new Color(0xDDCC77)};

    /**
     * Markers per series, each shape once, filled then outlined (no thin cross, which a scatter loses), so that a greyscale print still
     * separates the lines; the hollow circle is left to the paper's values.
     */
    private static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP,
        SeriesMarkers.TRIANGLE_DOWN, new ShapeMarker(ShapeMarker.Shape.TRIANGLE_RIGHT, true), SeriesMarkers.OVAL,
        SeriesMarkers.RECTANGLE, SeriesMarkers.TRAPEZOID,
        new ShapeMarker(ShapeMarker.Shape.PENTAGON, true), new ShapeMarker(ShapeMarker.Shape.HEXAGON, true),
        new ShapeMarker(ShapeMarker.Shape.STAR, true), new ShapeMarker(ShapeMarker.Shape.OCTAGON, true),
        new ShapeMarker(ShapeMarker.Shape.FOUR_POINT_STAR, true),
        new ShapeMarker(ShapeMarker.Shape.SQUARE, false), new ShapeMarker(ShapeMarker.Shape.DIAMOND, false),
        new ShapeMarker(ShapeMarker.Shape.TRIANGLE_UP, false), new ShapeMarker(ShapeMarker.Shape.TRIANGLE_DOWN, false),
        new ShapeMarker(ShapeMarker.Shape.PENTAGON, false), new ShapeMarker(ShapeMarker.Shape.HEXAGON, false),
        new ShapeMarker(ShapeMarker.Shape.STAR, false), new ShapeMarker(ShapeMarker.Shape.OCTAGON, false),
        new ShapeMarker(ShapeMarker.Shape.FOUR_POINT_STAR, false),
        new ShapeMarker(ShapeMarker.Shape.TRIANGLE_RIGHT, false)};

    /** The markers, earlier series larger (see {@link ScaledMarker}). */
    private static final Marker[] SCALED = scaled();

    private static Marker[] scaled() {
        Marker[] out = new Marker[MARKERS.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = new ScaledMarker(MARKERS[i], ScaledMarker.scaleOf(i));
        }
        return out;
    }

    /** How many series get a colour and a marker no other series has. */
    public static final int DISTINCT_SERIES = Math.min(PALETTE.length, MARKERS.length);

    private Plots() {
    }

    /** The figure as PNG bytes of the given size in pixels. */
    public static byte[] png(PlotSpec spec, List<Map<String, Object>> rows, int width, int height) {
        return png(spec, rows, List.of(), width, height);
    }

    /** The figure with the paper's values as hollow markers, as PNG bytes of the given size in pixels. */
    public static byte[] png(PlotSpec spec, List<Map<String, Object>> rows, List<PaperPoint> paper, int width,
            int height) {
        return png(spec, rows, paper, List.of(), width, height);
    }

    /**
     * The figure with the paper's values as hollow markers and the bands of ours over a
     * sensitivity study as bars, as PNG bytes of the given size in pixels.
     */
    public static byte[] png(PlotSpec spec, List<Map<String, Object>> rows, List<PaperPoint> paper,
            List<BandSegment> bands, int width, int height) {
        try {
            return BitmapEncoder.getBitmapBytes(build(spec, PlotData.of(spec, rows), paper, bands, width, height).chart(),
                    BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("PNG encoding of plot " + spec.y() + " failed", e);
        }
    }

    /** The figure as a standalone SVG document of the given size in pixels. */
    public static String svg(PlotSpec spec, List<Map<String, Object>> rows, int width, int height) {
        return svg(spec, rows, List.of(), width, height);
    }

    /** The figure with the paper's values as hollow markers, as a standalone SVG document. */
    public static String svg(PlotSpec spec, List<Map<String, Object>> rows, List<PaperPoint> paper, int width,
            int height) {
        return svg(spec, rows, paper, List.of(), width, height);
    }

    /** The figure with the paper's values and the bands of ours over a sensitivity study, as a standalone SVG. */
    public static String svg(PlotSpec spec, List<Map<String, Object>> rows, List<PaperPoint> paper,
            List<BandSegment> bands, int width, int height) {
        Built built = build(spec, PlotData.of(spec, rows), paper, bands, width, height);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(built.chart(), out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("SVG encoding of plot " + spec.y() + " failed", e);
        }
        return describe(out.toString(StandardCharsets.UTF_8), built.description(), spec.title());
    }

    /**
     * The trade-off at a glance, as a standalone SVG: one point per policy, the main metric against
     * the memory it pins, each policy in its own colour and marker (by its index in
     * {@code policies}, so that several figures of one comparison colour a policy alike).
     *
     * @param points   rows with columns {@code policy}, {@code metric} and {@code pinned}
     * @param policies every policy of the comparison, in legend order
     */
    public static String tradeOffSvg(String title, String metric, String pinned, List<Map<String, Object>> points,
                                     List<String> policies, int width, int height) {
        XYChart xy = new XYChartBuilder().width(width).height(height).title(title)
                .xAxisTitle(AxisLabels.title(pinned)).yAxisTitle(AxisLabels.title(metric)).build();
        style(xy.getStyler(), new PlotData(true, List.of()));
        xy.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        xy.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        xy.getStyler().setMarkerSize(11);
        List<String> names = new ArrayList<>();
        for (Map<String, Object> r : points) {
            if (!(r.get(metric) instanceof Number m) || !(r.get(pinned) instanceof Number p)) {
                continue;
            }
            String policy = String.valueOf(r.get("policy"));
            int i = Math.max(0, policies.indexOf(policy));
            XYSeries s = xy.addSeries(policy, new double[] {p.doubleValue()}, new double[] {m.doubleValue()});
            s.setMarker(seriesMarker(i));
            s.setMarkerColor(seriesColor(i));
            s.setLineColor(seriesColor(i));
            names.add(policy);
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("trade-off plot: no policy has both " + metric + " and " + pinned);
        }
        String description = AxisLabels.title(metric) + " against " + AxisLabels.title(pinned) + "; policy: "
                + String.join(", ", names) + ". One point per policy; a point further left pins less memory.";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(xy, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("SVG encoding of the trade-off plot failed", e);
        }
        return describe(out.toString(StandardCharsets.UTF_8), description, title);
    }

    /**
     * One sentence saying what the figure shows and how: axes and their scales, the series, and what
     * the points and error bars are. Used as the SVG's description and as the caption in HTML reports.
     */
    public static String caption(PlotSpec spec, List<Map<String, Object>> rows) {
        return describeData(spec, PlotData.of(spec, rows));
    }

    /** The colour of the series at this index in the legend (the palette repeats after {@link #DISTINCT_SERIES}). */
    static Color seriesColor(int index) {
        return PALETTE[index % PALETTE.length];
    }

    /** The marker of the series at this index in the legend. */
    static Marker seriesMarker(int index) {
        return SCALED[index % SCALED.length];
    }

    /** A chart as built, with its description. */
    record Built(Chart<?, ?> chart, String description) {
    }

    /** The chart of {@code rows}, for the writers and for tests that read its axes. */
    static Built build(PlotSpec spec, List<Map<String, Object>> rows, List<PaperPoint> paper) {
        return build(spec, PlotData.of(spec, rows), paper, List.of(), WIDTH, HEIGHT);
    }

    private static Built build(PlotSpec declared, PlotData data, List<PaperPoint> paper, List<BandSegment> bands,
            int width, int height) {
        if (width < 100 || height < 100) {
            throw new IllegalArgumentException("plot size " + width + "x" + height + " is too small (at least 100x100)");
        }
        PlotSpec spec = withLogY(declared, data);
        Chart<?, ?> chart;
        if (data.numericX()) {
            XYChart xy = new XYChartBuilder().width(width).height(height).title(spec.title())
                    .xAxisTitle(AxisLabels.title(spec.x())).yAxisTitle(AxisLabels.title(spec.y())).build();
            style(xy.getStyler(), data);
            // beside the plot, never over it: a comparison has a legend of twenty policies
            xy.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
            boolean log2x = spec.logx() && AxisLabels.isBytes(spec.x());
            if (spec.logx() && !log2x) {
                xy.getStyler().setXAxisLogarithmic(true);
            }
            if (log2x) {
                // XChart's log axes are base 10 only: plot log2(size) on a linear axis and label the ticks
                // at whole powers of two with the size they stand for (8, 64, 1K, ...), as the seeds'
                // figures do; ticks XChart puts between powers keep their grid line but no label.
                xy.setCustomXAxisTickLabelsFormatter(v -> Math.abs(v - Math.rint(v)) < 1e-9
                        ? AxisLabels.bytes(Math.pow(2, Math.rint(v))) : "");
            } else if (AxisLabels.isBytes(spec.x())) {
                xy.getStyler().setxAxisTickLabelsFormattingFunction(AxisLabels::bytes);
            }
            for (PlotData.Series s : data.series()) {
                int n = s.points().size();
                double[] xs = new double[n];
                double[] ys = new double[n];
                double[] errors = new double[n];
                for (int i = 0; i < n; i++) {
                    PlotData.Point p = s.points().get(i);
                    double x = (Double) p.x();
                    if (spec.logx() && x <= 0) {
                        throw new IllegalArgumentException("plot " + spec.y() + ": logarithmic x needs " + spec.x()
                                + " > 0, but series " + s.name() + " has " + AxisLabels.cell(x));
                    }
                    xs[i] = log2x ? Math.log(x) / Math.log(2) : x;
                    ys[i] = positiveOnLog(spec, s, p);
                    errors[i] = clippedError(spec, p);
                }
                XYSeries series = data.hasRepetitions() ? xy.addSeries(s.name(), xs, ys, errors)
                        : xy.addSeries(s.name(), xs, ys);
                series.setLineStyle(new BasicStroke(1.5f));
            }
            paperSeries(xy, spec, data, paper, log2x);
            bandSeries(xy, spec, data, bands, log2x);
            chart = xy;
        } else {
            CategoryChart bars = new CategoryChartBuilder().width(width).height(height).title(spec.title())
                    .xAxisTitle(xTitle(spec, data)).yAxisTitle(AxisLabels.title(spec.y())).build();
            style(bars.getStyler(), data);
            bars.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
            List<Object> categories = data.xValues();
            for (PlotData.Series s : data.series()) {
                // XChart needs every category in every series; a category a series lacks gets no bar
                // (null), not a zero bar that would read as a measured zero.
                List<Double> ys = new ArrayList<>();
                List<Double> errors = new ArrayList<>();
                for (Object c : categories) {
                    PlotData.Point p = s.points().stream().filter(q -> q.x().equals(c)).findFirst().orElse(null);
                    if (p == null && spec.logy()) {
                        // XChart rejects a missing bar on a log axis with an exception naming no column.
                        throw new IllegalArgumentException("plot " + spec.y() + ": a logarithmic y axis with bars "
                                + "needs every series to have every " + spec.x() + ", but " + s.name() + " has no " + c);
                    }
                    ys.add(p == null ? null : positiveOnLog(spec, s, p));
                    errors.add(p == null ? null : clippedError(spec, p));
                }
                if (data.hasRepetitions()) {
                    bars.addSeries(s.name(), categories, ys, errors);
                } else {
                    bars.addSeries(s.name(), categories, ys);
                }
            }
            chart = bars;
        }
        AxesChartStyler styler = (AxesChartStyler) chart.getStyler();
        styler.setYAxisLogarithmic(spec.logy());
        if (spec.logy()) {
            coverWithDecades(styler, data, paper);
        }
        return new Built(chart, describeData(declared, data));
    }

    /**
     * The paper's values as one scatter series per plotted series, hollow circles in that series'
     * colour, after every data series so that the data keep their colours. Points of a series the
     * plot does not have, or that a log axis cannot show, are left out.
     */
    private static void paperSeries(XYChart xy, PlotSpec spec, PlotData data, List<PaperPoint> paper, boolean log2x) {
        for (int i = 0; i < data.series().size(); i++) {
            String name = data.series().get(i).name();
            List<double[]> pts = new ArrayList<>();
            for (PaperPoint p : paper) {
                if (p.series().equalsIgnoreCase(name) && !(spec.logy() && p.y() <= 0) && !(spec.logx() && p.x() <= 0)) {
                    pts.add(new double[] {log2x ? Math.log(p.x()) / Math.log(2) : p.x(), p.y()});
                }
            }
            if (pts.isEmpty()) {
                continue;
            }
            double[] xs = pts.stream().mapToDouble(a -> a[0]).toArray();
            double[] ys = pts.stream().mapToDouble(a -> a[1]).toArray();
            XYSeries s = data.hasRepetitions() ? xy.addSeries(name + " (paper)", xs, ys, new double[xs.length])
                    : xy.addSeries(name + " (paper)", xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            s.setMarker(new HollowCircle());
            s.setMarkerColor(seriesColor(i));
            s.setLineColor(seriesColor(i));
        }
    }

    /**
     * Each band as a vertical bar in its series' colour, kept out of the legend (one entry per bar
     * would crowd it); after the paper's values, so that the data keep their colours.
     */
    private static void bandSeries(XYChart xy, PlotSpec spec, PlotData data, List<BandSegment> bands, boolean log2x) {
        int k = 0;
        for (BandSegment b : bands) {
            int i = -1;
            for (int j = 0; j < data.series().size(); j++) {
                if (data.series().get(j).name().equalsIgnoreCase(b.series())) {
                    i = j;
                }
            }
            if (i < 0 || spec.logy() && b.low() <= 0 || spec.logx() && b.x() <= 0) {
                continue;
            }
            double x = log2x ? Math.log(b.x()) / Math.log(2) : b.x();
            double[] xs = {x, x};
            double[] ys = {b.low(), b.high()};
            XYSeries s = data.hasRepetitions() ? xy.addSeries(data.series().get(i).name() + " (band " + ++k + ")", xs, ys,
                    new double[2]) : xy.addSeries(data.series().get(i).name() + " (band " + ++k + ")", xs, ys);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.NONE);
            // translucent, so that our value and the paper's stay visible on the bar
            java.awt.Color c = seriesColor(i);
            s.setLineColor(new java.awt.Color(c.getRed(), c.getGreen(), c.getBlue(), 90));
            s.setLineStyle(new BasicStroke(6f));
            s.setShowInLegend(false);
        }
    }

    /** The error bar, shortened on a log y axis so that its lower end stays above zero (see class doc). */
    private static double clippedError(PlotSpec spec, PlotData.Point p) {
        return spec.logy() && p.mean() - p.stddev() <= 0 ? p.mean() * 0.999 : p.stddev();
    }

    private static double positiveOnLog(PlotSpec spec, PlotData.Series s, PlotData.Point p) {
        if (spec.logy() && p.mean() <= 0) {
            throw new IllegalArgumentException("plot " + spec.y() + ": logarithmic y needs values > 0, but series "
                    + s.name() + " at " + spec.x() + "=" + AxisLabels.cell(p.x()) + " has mean "
                    + AxisLabels.cell(p.mean()));
        }
        return p.mean();
    }

    /** Orders of magnitude between a plot's series beyond which a linear y axis would draw the lowest on zero. */
    static final int SPAN_FOR_LOG_DECADES = 3;

    /**
     * Whether the y axis is logarithmic: as the spec says, or because every value is positive and
     * they span more than {@link #SPAN_FOR_LOG_DECADES} orders of magnitude, where a linear axis
     * would draw the lowest series as a line on zero (the caption says so).
     */
    static boolean logY(PlotSpec spec, PlotData data) {
        if (spec.logy()) {
            return true;
        }
        if (!data.numericX()) {
            return false; // a bar a series lacks cannot stand on a log axis
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (PlotData.Series s : data.series()) {
            for (PlotData.Point p : s.points()) {
                if (!(p.mean() > 0)) {
                    return false;
                }
                lo = Math.min(lo, p.mean());
                hi = Math.max(hi, p.mean());
            }
        }
        return hi > 0 && hi / lo > Math.pow(10, SPAN_FOR_LOG_DECADES);
    }

    /**
     * Extends a log y axis to the decades around every value, error bars and the paper's values
     * included: XChart ends the axis at the highest value and labels decades only, so a value
     * above the last decade would sit over the last label with nothing to read it by.
     */
    private static void coverWithDecades(AxesChartStyler st, PlotData data, List<PaperPoint> paper) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (PlotData.Series s : data.series()) {
            for (PlotData.Point p : s.points()) {
                if (p.mean() > 0) {
                    lo = Math.min(lo, p.mean() - Math.min(p.stddev(), p.mean() * 0.999));
                    hi = Math.max(hi, p.mean() + p.stddev());
                }
            }
        }
        for (PaperPoint p : paper) {
            if (p.y() > 0) {
                lo = Math.min(lo, p.y());
                hi = Math.max(hi, p.y());
            }
        }
        if (hi > 0 && lo > 0) {
            st.setYAxisMin(Math.pow(10, Math.floor(Math.log10(lo))));
            st.setYAxisMax(Math.pow(10, Math.ceil(Math.log10(hi))));
        }
    }

    /** The x axis title; a column of categories (kernel behaviours, not page counts) shows no unit. */
    private static String xTitle(PlotSpec spec, PlotData data) {
        return data.numericX() ? AxisLabels.title(spec.x()) : spec.x().replace('_', ' ');
    }

    /** A paper-like look: white background, light grid, readable fonts, fixed colours and markers. */
    private static void style(AxesChartStyler st, PlotData data) {
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setPlotBorderColor(Color.DARK_GRAY);
        st.setPlotGridLinesColor(new Color(0xDDDDDD));
        st.setLegendBorderColor(new Color(0xBBBBBB));
        st.setChartFontColor(Color.BLACK);
        st.setAxisTickLabelsColor(Color.BLACK);
        st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        st.setChartTitleVisible(true);
        st.setChartTitleBoxVisible(false);
        st.setSeriesColors(PALETTE);
        st.setSeriesMarkers(SCALED);
        st.setMarkerSize(8);
        st.setErrorBarsColorSeriesColor(true);
        st.setLegendVisible(true);
        // Decade-only labels leave a log axis unlabelled when the data span less than a decade.
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (PlotData.Series s : data.series()) {
            for (PlotData.Point p : s.points()) {
                lo = Math.min(lo, p.mean());
                hi = Math.max(hi, p.mean());
            }
        }
        st.setYAxisLogarithmicDecadeOnly(lo > 0 && hi / lo >= 100);
        // XChart's log axis writes 10000 as "1E4"; figures in the seeds write plain numbers.
        st.setYAxisDecimalPattern("#,##0.###");
    }

    /** The spec with a log y axis where {@link #logY} asks for one. */
    private static PlotSpec withLogY(PlotSpec spec, PlotData data) {
        return spec.logy() || !logY(spec, data) ? spec
                : new PlotSpec(spec.x(), spec.y(), spec.series(), spec.logx(), true, spec.title());
    }

    private static String describeData(PlotSpec declared, PlotData data) {
        PlotSpec spec = withLogY(declared, data);
        boolean clipped = data.series().stream()
                .anyMatch(s -> s.points().stream().anyMatch(p -> clippedError(spec, p) != p.stddev()));
        StringBuilder b = new StringBuilder();
        b.append(AxisLabels.title(spec.y())).append(spec.logy() ? " on a log scale" : "")
                .append(spec.logy() && !declared.logy() ? " (its values span more than " + SPAN_FOR_LOG_DECADES
                        + " orders of magnitude)" : "")
                .append(" against ").append(xTitle(spec, data));
        if (spec.logx()) {
            b.append(AxisLabels.isBytes(spec.x()) && data.numericX() ? " on a log2 scale" : " on a log scale");
        }
        List<String> names = data.series().stream().map(PlotData.Series::name).toList();
        b.append(spec.hasSeries() ? "; " + spec.series() + ": " + String.join(", ", names) : "").append(". ");
        if (data.hasRepetitions()) {
            b.append("Points are means over repetitions; error bars span \u00b11 sample standard deviation");
            b.append(clipped ? ", shortened where they would reach zero on the log axis." : ".");
        } else {
            b.append("One measurement per point.");
        }
        return b.toString();
    }

    /** Adds title, description and an accessible label to XChart's SVG, which has text only as outlines. */
    private static String describe(String svg, String description, String title) {
        int open = svg.indexOf("<svg ");
        int end = svg.indexOf('>', open);
        if (open < 0 || end < 0) {
            throw new IllegalStateException("XChart produced SVG without an <svg> element");
        }
        String label = title.isBlank() ? description : title + ". " + description;
        String meta = "\n  <title>" + Html.escape(title.isBlank() ? description : title) + "</title>\n  <desc>"
                + Html.escape(description) + "</desc>";
        return svg.substring(0, open) + "<svg role=\"img\" aria-label=\"" + Html.escape(label) + "\" "
                + svg.substring(open + 5, end + 1) + meta + svg.substring(end + 1);
    }
}
