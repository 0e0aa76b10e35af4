package org.pagefabric.hw.profile;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.pagefabric.hw.profile.param.ActiveAccessParameters;
import org.pagefabric.hw.profile.param.ActiveMessageParameters;
import org.pagefabric.hw.profile.param.BounceParameters;
import org.pagefabric.hw.profile.param.CpuParameters;
import org.pagefabric.hw.profile.param.FirehoseParameters;
import org.pagefabric.hw.profile.param.IommuParameters;
import org.pagefabric.hw.profile.param.LinkParameters;
import org.pagefabric.hw.profile.param.MemoryParameters;
import org.pagefabric.hw.profile.param.NicParameters;
import org.pagefabric.hw.profile.param.OdpParameters;
import org.pagefabric.hw.profile.param.OpenMxParameters;
import org.pagefabric.hw.profile.param.StackParameters;
import org.pagefabric.hw.profile.param.OsParameters;
import org.pagefabric.hw.profile.param.MdParameters;
import org.pagefabric.hw.profile.param.PartParameters;
import org.pagefabric.hw.profile.param.PcieParameters;
import org.pagefabric.hw.profile.param.PowerParameters;
import org.pagefabric.hw.profile.param.RendezvousParameters;
import org.pagefabric.hw.profile.param.RegistrationCacheParameters;
import org.pagefabric.hw.profile.param.TransportParameters;

/**
 * Every parameter the simulator knows, collected from the layer classes' {@code public static
 * final Parameter} fields: the one list that profiles are checked against and that
 * {@code pagefabric info} prints. A new layer is one new class added to {@link #LAYERS}.
 */
public final class ParameterRegistry {
    /** The layer classes, bottom-up; each declares its parameters as public static final fields. */
    public static final List<Class<?>> LAYERS = List.of(
            LinkParameters.class, PcieParameters.class, CpuParameters.class, MemoryParameters.class,
            OsParameters.class, NicParameters.class, IommuParameters.class, TransportParameters.class,
            OdpParameters.class, PartParameters.class, MdParameters.class, ActiveAccessParameters.class,
            FirehoseParameters.class, OpenMxParameters.class, BounceParameters.class, RendezvousParameters.class,
            RegistrationCacheParameters.class,
            ActiveMessageParameters.class,
            PowerParameters.class,
            StackParameters.class);

    private static final Map<String, Parameter> BY_NAME = collect();

    private ParameterRegistry() {
    }

    private static Map<String, Parameter> collect() {
        List<Parameter> found = new ArrayList<>();
        List<Class<?>> declaring = new ArrayList<>(LAYERS);
        for (ParameterSet set : java.util.ServiceLoader.load(ParameterSet.class, ParameterRegistry.class.getClassLoader())) {
            declaring.addAll(set.declaringClasses());
        }
        for (Class<?> layer : declaring) {
            for (Field f : layer.getDeclaredFields()) {
                int m = f.getModifiers();
                if (f.getType() == Parameter.class && Modifier.isStatic(m) && Modifier.isPublic(m)
                        && Modifier.isFinal(m)) {
                    try {
                        found.add((Parameter) f.get(null));
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException("cannot read " + layer.getName() + "." + f.getName(), e);
                    }
                }
            }
        }
        // Sorted by name: the printed list and the resolved dump do not depend on reflection order.
        found.sort((a, b) -> a.name().compareTo(b.name()));
        Map<String, Parameter> byName = new LinkedHashMap<>();
        for (Parameter p : found) {
            Parameter previous = byName.put(p.name(), p);
            if (previous != null) {
                throw new IllegalStateException("parameter " + p.name() + " is declared twice");
            }
        }
        return Collections.unmodifiableMap(byName);
    }

    /** Every declared parameter, sorted by name. */
    public static Collection<Parameter> all() {
        return BY_NAME.values();
    }

    /**
     * The parameters whose names equal one of {@code namesOrPrefixes} or, for an entry ending in
     * a dot, start with it, in registry order: how a component declares the costs it reads.
     */
    public static List<Parameter> matching(String... namesOrPrefixes) {
        List<Parameter> out = new ArrayList<>();
        for (Parameter p : all()) {
            for (String x : namesOrPrefixes) {
                if (p.name().equals(x) || x.endsWith(".") && p.name().startsWith(x)) {
                    out.add(p);
                    break;
                }
            }
        }
        return out;
    }

    /** The parameter with this exact name, if declared. */
    public static Optional<Parameter> find(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** Up to {@code max} declared names closest to a misspelt one, closest first. */
    public static List<String> closestNames(String name, int max) {
        return NameSuggestions.closest(name, BY_NAME.keySet(), max);
    }
}
