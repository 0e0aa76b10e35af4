package org.pagefabric.report;

import java.awt.Graphics2D;
import org.knowm.xchart.style.markers.Marker;

/**
 * A marker drawn larger or smaller than the chart's marker size. Series are drawn in legend order,
 * each over the ones before; giving earlier series larger markers leaves a rim of every earlier
 * marker around a later one at the same point, so two nearly equal series stay two.
 */
final class ScaledMarker extends Marker {
    private final Marker inner;
    private final double scale;

    ScaledMarker(Marker inner, double scale) {
        this.inner = inner;
        this.scale = scale;
    }

    /**
     * The scale of the series at this legend index: 1.8, then a third less for each of the next
     * two, at least 0.6, so the second marker leaves a visible rim of the first whatever their shapes.
     */
    static double scaleOf(int index) {
        return Math.max(0.6, 1.8 * Math.pow(2.0 / 3, index));
    }

    @Override
    public void paint(Graphics2D g, double xOffset, double yOffset, int markerSize) {
        inner.paint(g, xOffset, yOffset, (int) Math.round(markerSize * scale));
    }
}
