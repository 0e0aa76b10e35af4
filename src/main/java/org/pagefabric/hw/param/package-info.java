/**
 * The declarations of every cost parameter, one class per layer. A hardware or policy model reads
 * its costs as {@code profile.time(NicParameters.WQE_PROCESSING)}; a new parameter is one new
 * {@code public static final} field here plus its value and source in {@code profiles/default.yaml}
 * (a test fails, naming the parameter, until both exist).
 */
package org.pagefabric.hw.param;
