/**
 * Cost profiles and the parameters they set. A {@link Parameter} (a dotted name, a
 * {@link Dimension} and a {@link Range}) is declared as a {@code public static final} field of the
 * class that reads it; {@link ParameterRegistry} collects them from every {@link ParameterSet} on
 * the class path. A profile file is read with the position of every field ({@link ProfileReader}),
 * resolved through its {@code extends} chain into an immutable {@link Profile}
 * ({@link ProfileResolver}, {@link ProfileRegistry}), changed one value at a time by a grid or
 * {@code --set} ({@link ProfileOverride}) and written beside results ({@link ProfileDump}). Every
 * user input shares the strict readers here: exact decimals and data rates ({@link Decimals},
 * {@link Bandwidth}), YAML without aliases, anchors or tags ({@link YamlFeatures}) and bounded
 * UTF-8 files ({@link TextFiles}).
 *
 * <p>Layer: Configuration, directly above the simulation kernel. It may use only
 * {@code org.pagefabric.sim} and uses nothing of PageFabric at all, so every layer above can read
 * a profile. No cost value lives here: declarations are in {@code hw.param} and the policy
 * packages, values in {@code profiles/*.yaml}.
 */
package org.pagefabric.config;
