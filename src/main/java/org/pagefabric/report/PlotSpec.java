package org.pagefabric.report;

import java.util.Objects;

/**
 * What to plot from tidy rows: one column on each axis, one line (or bar group) per value of the series
 * column, as written in an experiment spec's {@code plot:} block.
 *
 * <p>Rows sharing the same (series, x) are repetitions: {@link Plots} draws their mean and, where there is
 * more than one, an error bar of plus or minus one sample standard deviation.
 *
 * @param x      column on the horizontal axis, for example {@code size_B}; numeric columns give a line
 *               chart, non-numeric ones (a breakdown's component names) a grouped bar chart
 * @param y      numeric metric column on the vertical axis, for example {@code latency_us}
 * @param series column whose values name the lines, for example {@code policy}, or columns joined by
 *               {@code /} ({@code scheme/policy}) whose values, joined the same way, name them; {@code null} or blank for
 *               a single line named after {@code y}
 * @param logx   logarithmic horizontal axis (base 2 for byte sizes, base 10 otherwise)
 * @param logy   logarithmic vertical axis (base 10)
 * @param title  chart title; {@code null} or blank for none
 */
public record PlotSpec(String x, String y, String series, boolean logx, boolean logy, String title) {

    /** Rejects a plot without both axis columns, because no chart can be drawn from it. */
    public PlotSpec {
        if (x == null || x.isBlank()) {
            throw new IllegalArgumentException("plot: x must name a column, for example size_B");
        }
        if (y == null || y.isBlank()) {
            throw new IllegalArgumentException("plot: y must name a metric column, for example latency_us");
        }
        series = series == null || series.isBlank() ? null : series;
        title = title == null ? "" : title;
    }

    /** A linear plot of {@code y} against {@code x} with one line per value of {@code series}. */
    public static PlotSpec of(String x, String y, String series) {
        return new PlotSpec(x, y, series, false, false, "");
    }

    /** This plot with the given axis scales. */
    public PlotSpec withLog(boolean logX, boolean logY) {
        return new PlotSpec(x, y, series, logX, logY, title);
    }

    /** This plot with the given title. */
    public PlotSpec withTitle(String newTitle) {
        return new PlotSpec(x, y, series, logx, logy, Objects.requireNonNullElse(newTitle, ""));
    }

    /** Whether the plot has a series column (otherwise all rows form one line). */
    public boolean hasSeries() {
        return series != null;
    }
}
