package org.pagefabric.report;

/** How far an experiment got, as a report and the index show it. */
public enum RunStatus {
    /** Every run of the grid finished and its rows are in the results. */
    COMPLETE("complete", "status-complete"),
    /** The run was interrupted or hit a limit; the rows are a prefix of the grid. */
    STOPPED_EARLY("stopped early", "status-stopped"),
    /** The experiment did not run because something it needs is missing (a policy, a profile, a host). */
    UNMET_PREREQUISITES("unmet prerequisites", "status-unmet");

    private final String label;
    private final String cssClass;

    RunStatus(String label, String cssClass) {
        this.label = label;
        this.cssClass = cssClass;
    }

    /** The status as a reader sees it, for example "stopped early". */
    public String label() {
        return label;
    }

    /** CSS class of the status badge, shared by report and index. */
    String cssClass() {
        return cssClass;
    }
}
