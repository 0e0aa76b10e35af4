package org.pagefabric.endpoint;

import java.util.List;
import org.pagefabric.config.ParameterSet;

/** The active-message layer's parameters. */
public final class EndpointParameters implements ParameterSet {
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(ActiveMessageParameters.class);
    }
}
