package org.pagefabric.report;

import java.awt.BasicStroke;
import java.awt.Graphics2D;
import java.awt.geom.Ellipse2D;
import org.knowm.xchart.style.markers.Marker;

/** An outlined circle: the paper's values, beside our filled markers in the same colour. */
final class HollowCircle extends Marker {
    private static final BasicStroke OUTLINE = new BasicStroke(2f);

    @Override
    public void paint(Graphics2D g, double xOffset, double yOffset, int markerSize) {
        double d = markerSize + 4;
        g.setStroke(OUTLINE);
        g.draw(new Ellipse2D.Double(xOffset - d / 2, yOffset - d / 2, d, d));
    }
}
