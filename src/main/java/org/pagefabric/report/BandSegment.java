package org.pagefabric.report;

/**
 * The band of ours for a published value over a sensitivity study: the lowest and highest our
 * value took while the assumed costs moved across their plausible ranges, drawn as a vertical bar
 * in its series' colour at the value's x.
 *
 * @param series the series it belongs to, as the plot's series column names it
 * @param x      the x value, in the plot's x units
 * @param low    the lowest of ours
 * @param high   the highest of ours
 */
public record BandSegment(String series, double x, double low, double high) {
}
