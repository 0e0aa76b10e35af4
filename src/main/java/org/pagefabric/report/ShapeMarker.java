package org.pagefabric.report;

import java.awt.BasicStroke;
import java.awt.Graphics2D;
import java.awt.geom.Path2D;
import org.knowm.xchart.style.markers.Marker;

/**
 * Markers XChart does not have: regular polygons and a star, filled or outlined, so that a plot
 * of twenty policies gives each its own shape as well as its own colour.
 */
final class ShapeMarker extends Marker {
    private static final BasicStroke OUTLINE = new BasicStroke(1.8f);

    /** The outline's corners on the unit circle, starting at the top. */
    enum Shape {
        SQUARE(4, 0.25, false), DIAMOND(4, 0, false), TRIANGLE_UP(3, 0, false), TRIANGLE_DOWN(3, 0.5, false),
        TRIANGLE_RIGHT(3, 0.75, false), PENTAGON(5, 0, false), HEXAGON(6, 0, false), OCTAGON(8, 0.5, false), STAR(5, 0, true),
        FOUR_POINT_STAR(4, 0, true);

        private final int corners;
        private final double turn;
        private final boolean star;

        Shape(int corners, double turn, boolean star) {
            this.corners = corners;
            this.turn = turn;
            this.star = star;
        }
    }

    private final Shape shape;
    private final boolean filled;

    ShapeMarker(Shape shape, boolean filled) {
        this.shape = shape;
        this.filled = filled;
    }

    @Override
    public void paint(Graphics2D g, double xOffset, double yOffset, int markerSize) {
        double r = markerSize * 0.65;
        int points = shape.star ? 2 * shape.corners : shape.corners;
        Path2D.Double p = new Path2D.Double();
        for (int i = 0; i < points; i++) {
            double radius = shape.star && i % 2 == 1 ? r * 0.45 : r;
            double a = 2 * Math.PI * (i / (double) points + shape.turn / shape.corners) - Math.PI / 2;
            double x = xOffset + radius * Math.cos(a);
            double y = yOffset + radius * Math.sin(a);
            if (i == 0) {
                p.moveTo(x, y);
            } else {
                p.lineTo(x, y);
            }
        }
        p.closePath();
        if (filled) {
            g.fill(p);
        } else {
            g.setStroke(OUTLINE);
            g.draw(p);
        }
    }
}
