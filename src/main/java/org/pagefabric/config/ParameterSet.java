package org.pagefabric.config;

import java.util.List;

/**
 * Classes that declare profile parameters as {@code public static final Parameter} fields, found
 * through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.pagefabric.config.ParameterSet}): how a package outside the
 * simulator's own layers, such as a user's policy, adds the costs it reads to every profile.
 * Such parameters carry their own default ({@link Parameter#withDefault}).
 */
public interface ParameterSet {
    /** The classes whose public static final {@link Parameter} fields belong to this set. */
    List<Class<?>> declaringClasses();
}
