package org.pagefabric.active;

import java.util.List;
import org.pagefabric.config.ParameterSet;

/** The Active Access runtime's parameters. */
public final class ActiveParameters implements ParameterSet {
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(ActiveAccessParameters.class);
    }
}
