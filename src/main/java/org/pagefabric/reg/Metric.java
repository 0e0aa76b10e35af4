package org.pagefabric.reg;

/**
 * A quantity a registration policy can publish and a workload can read, by this typed key and
 * never by a string: {@link RegistrationPolicy#metric} answers it for the policy's whole job.
 */
public enum Metric {
    /** Operations served without registration work (a pin-down cache hit, a Firehose hit). */
    HITS("operations", "operations served without registration work"),
    /** Operations that needed registration work first. */
    MISSES("operations", "operations that needed registration work first"),
    /** Firehose moves: active-message requests that remapped a remote firehose. */
    MOVES("moves", "remote mappings moved by an active-message handshake"),
    /** Remote operations that needed a handshake with their target before the data moved. */
    HANDSHAKES("operations", "remote operations that hand-shook with their target first");

    private final String unit;
    private final String description;

    Metric(String unit, String description) {
        this.unit = unit;
        this.description = description;
    }

    /** Unit of the value. */
    public String unit() {
        return unit;
    }

    /** One line saying what is counted. */
    public String description() {
        return description;
    }
}
