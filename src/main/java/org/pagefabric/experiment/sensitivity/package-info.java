/**
 * How much a published number can be trusted: a sensitivity study of one experiment varies each
 * assumed and fitted cost it reads to the ends of its plausible range, one at a time, then all
 * together in a Latin hypercube, and reports per published number the band of ours and whether
 * its verdict holds across it ({@link org.pagefabric.experiment.sensitivity.SensitivityStudy});
 * {@code reproduce --sensitivity} marks the fragile verdicts and {@code compare --bands} the
 * policies' bands. Part of the experiment layer: it uses {@code config} for the ranges and the
 * experiment runner beside it, never a model layer directly.
 */
package org.pagefabric.experiment.sensitivity;
