/**
 * A timeline of one run in Chrome's trace-event format (what Perfetto and chrome://tracing open):
 * what each rank, NIC and kernel did when, and the job's pinned memory.
 */
package org.pagefabric.report.timeline;
