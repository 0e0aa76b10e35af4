/**
 * Views of tidy result rows: plots (PNG and SVG through XChart), one self-contained HTML report per
 * experiment, and an index page across experiments.
 *
 * <p>Every view here is computed from the rows alone (plus the experiment's metadata), so a report can
 * be rebuilt from a results directory without rerunning the simulation, and the same rows always give
 * the same bytes. Terminal tables live with the CLI ({@code org.pagefabric.cli.RowFormat}); this
 * package does not duplicate them.
 */
package org.pagefabric.report;
