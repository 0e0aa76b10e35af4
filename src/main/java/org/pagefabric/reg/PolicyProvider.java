package org.pagefabric.reg;

import java.util.List;
import org.pagefabric.config.ParameterSet;

/**
 * A package of registration policies, found through {@link java.util.ServiceLoader}: a jar that
 * lists its provider in {@code META-INF/services/org.pagefabric.reg.PolicyProvider} adds its
 * policies to every command without a change to PageFabric.
 *
 * <p>A provider is also the {@link ParameterSet} of its package: the classes
 * {@link #declaringClasses()} names join every profile's parameters through
 * {@link PolicyParameterSets}, so the provider is named in that one service file only.
 */
public interface PolicyProvider extends ParameterSet {
    /** The policies this package offers, in the order listings show them. */
    List<PolicyDescriptor> policies();

    /** The classes whose public static final parameters this package declares; none by default. */
    @Override
    default List<Class<?>> declaringClasses() {
        return List.of();
    }
}
