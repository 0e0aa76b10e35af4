package org.pagefabric.calibrate;

/**
 * A measurement the host did not allow, and why.
 *
 * @param probe the probe that would have made it
 * @param what the quantities it would have measured
 * @param reason why it was skipped, in one line
 */
public record Skipped(String probe, String what, String reason) {
}
