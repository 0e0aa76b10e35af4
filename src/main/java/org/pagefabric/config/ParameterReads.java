package org.pagefabric.config;

import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The parameters that were read from the profiles it is attached to ({@link Profile#recording}):
 * which costs a run actually depends on, as opposed to the hundreds a profile carries. Reads
 * through any accessor ({@link Profile#time}, {@link Profile#setting}, ...) count; listing every
 * setting ({@link Profile#settings}, as dumps and caches do) does not. Safe to share between the
 * worker threads of one experiment.
 */
public final class ParameterReads {
    private final Set<Parameter> read = ConcurrentHashMap.newKeySet();

    /** Notes that {@code p} was read. */
    void add(Parameter p) {
        read.add(p);
    }

    /** Whether {@code p} was read. */
    public boolean contains(Parameter p) {
        return read.contains(p);
    }

    /** The parameters read so far, by name: an order that does not depend on which thread read first. */
    public List<Parameter> sorted() {
        return read.stream().sorted(Comparator.comparing(Parameter::name)).toList();
    }
}
