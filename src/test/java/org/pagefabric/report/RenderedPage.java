package org.pagefabric.report;

import java.awt.Color;
import java.awt.image.BufferedImage;

/** What the render tests count in a page's text and in its screenshot. */
final class RenderedPage {
    private RenderedPage() {
    }

    /** Occurrences of {@code needle} in {@code text}, overlapping ones included. */
    static int occurrences(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    /**
     * Pixels whose every channel is within {@code tolerance} of the colour's (anti-aliasing shifts
     * edges, not fills).
     */
    static int pixelsNear(BufferedImage image, Color c, int tolerance) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                if (Math.abs(((rgb >> 16) & 0xFF) - c.getRed()) <= tolerance
                        && Math.abs(((rgb >> 8) & 0xFF) - c.getGreen()) <= tolerance
                        && Math.abs((rgb & 0xFF) - c.getBlue()) <= tolerance) {
                    n++;
                }
            }
        }
        return n;
    }
}
