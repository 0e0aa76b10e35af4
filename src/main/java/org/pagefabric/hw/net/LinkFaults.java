package org.pagefabric.hw.net;

/**
 * Fault injection on a link: each packet that crosses it is lost with probability
 * {@code lossProbability}, otherwise corrupted with probability {@code corruptionProbability}.
 * Draws come from the link's own random stream, so they depend only on the run's seed and the
 * link's name.
 *
 * @param lossProbability       probability in [0, 1] that a packet vanishes on the wire
 * @param corruptionProbability probability in [0, 1] that a surviving packet has one bit flipped
 */
public record LinkFaults(double lossProbability, double corruptionProbability) {
    /** No loss, no corruption. */
    public static final LinkFaults NONE = new LinkFaults(0, 0);

    /** Validates the probabilities. */
    public LinkFaults {
        if (!(lossProbability >= 0 && lossProbability <= 1)) {
            throw new IllegalArgumentException("lossProbability must be in [0, 1], got " + lossProbability);
        }
        if (!(corruptionProbability >= 0 && corruptionProbability <= 1)) {
            throw new IllegalArgumentException("corruptionProbability must be in [0, 1], got " + corruptionProbability);
        }
    }
}
