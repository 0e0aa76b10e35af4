package org.pagefabric.calibrate;

/** A probe that measures on a region of a fixed number of 4 KiB pages, with its name and purpose. */
abstract class SizedProbe implements Probe {
    private final String name;
    private final String measures;
    /** Pages of the large size measured. */
    final int pages;

    SizedProbe(String name, String measures, int pages) {
        this.name = name;
        this.measures = measures;
        this.pages = pages;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String measures() {
        return measures;
    }
}
