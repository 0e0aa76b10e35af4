package org.pagefabric.report.timeline;

/**
 * A timeline drawn for a page: the SVG and what a reader needs to know about how it was drawn.
 *
 * @param svg        the drawing, an {@code <svg>} element without XML declaration or namespace,
 *                   ready to sit inside an HTML page
 * @param lanes      lanes drawn, one per rank, per NIC and per kernel (the pinned-memory counter
 *                   not counted)
 * @param spans      spans among the events kept (the counter's samples not counted)
 * @param merged     spans narrower than one pixel, drawn merged into the pixel columns they fall in
 * @param kept       events kept
 * @param dropped    events after the cap, not kept
 * @param capacity   the cap on events kept
 * @param rectangles rectangles drawn: at most one per run of pixel columns of one kind in a lane,
 *                   so the drawing's size is bounded by lanes and width, not by events
 * @param pixelPs    the simulated time one pixel column spans, in picoseconds
 */
public record TimelineFigure(String svg, int lanes, int spans, int merged, int kept, long dropped, int capacity,
                             int rectangles, double pixelPs) {
    /** Whether the run had more events than the cap. */
    public boolean capped() {
        return dropped > 0;
    }

    /** What a reader must know about the drawing: that the cap was reached, how many spans were merged. */
    public java.util.List<String> notes() {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (capped()) {
            out.add("The cap on events was reached: the run had " + (kept + dropped) + " events and the first "
                    + capacity + " were kept, so the timeline ends at the last kept event, not at the end of the run.");
        }
        String pixel = TimelineSvg.duration(pixelPs) + " of simulated time";
        out.add(spans + " spans in " + lanes + " lanes, drawn as " + rectangles + " rectangles: " + (merged == 0
                ? "none is narrower than one pixel (" + pixel + "), so each is drawn to its extent."
                : merged + " spans narrower than one pixel (" + pixel + ") are merged into the pixel columns they"
                + " fall in, and each column takes the colour of the kind that fills most of its time."));
        return out;
    }
}
