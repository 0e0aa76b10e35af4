package org.pagefabric.report;

/**
 * A value the paper publishes for a point of a figure, drawn as a hollow marker in its series'
 * colour so that the reader sees at a glance how far ours is from it.
 *
 * @param series the series it belongs to, as the plot's series column names it
 * @param x      the x value, in the plot's x units
 * @param y      the paper's value of the plot's metric
 */
public record PaperPoint(String series, double x, double y) {
}
