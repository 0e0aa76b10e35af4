package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.comm.Rank;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * What every registered policy says it publishes, checked against what it publishes after one
 * operation it carries: the statistics its descriptor lists (placeholders filled in), the
 * extensions its capabilities offer, and the typed metrics it answers.
 */
class PublicationConformanceTest {
    static Stream<String> policies() {
        return PolicyRegistry.standard().names().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void everyDeclaredStatisticExistsAfterARun(String name) {
        Ran run = Ran.of(name);
        Set<String> missing = new TreeSet<>();
        for (String full : run.declared()) {
            if (run.stats().get(full) == null) {
                missing.add(full);
            }
        }
        assertTrue(missing.isEmpty(), name + " declares statistics it does not publish: " + missing);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void everyStatisticBesideADeclaredOneIsDeclared(String name) {
        Ran run = Ran.of(name);
        Set<String> declared = run.declared();
        Set<String> prefixes = new TreeSet<>();
        for (String full : declared) {
            prefixes.add(full.substring(0, full.lastIndexOf('.') + 1));
        }
        Set<String> undeclared = new TreeSet<>();
        for (org.pagefabric.sim.stat.Statistic s : run.stats().all()) {
            if (prefixes.stream().anyMatch(s.name()::startsWith) && !declared.contains(s.name())) {
                undeclared.add(s.name());
            }
        }
        assertTrue(undeclared.isEmpty(), name + " publishes statistics its descriptor does not list: " + undeclared);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void extensionsAreOfferedExactlyAsTheDescriptorDeclares(String name) {
        Ran run = Ran.of(name);
        Set<Capability> caps = run.descriptor().capabilities();
        RegistrationPolicy p = run.policy();
        Rank first = run.outcome().job().rank(0);
        assertEquals(caps.contains(Capability.INTERRUPT_PLACEMENT), p.interruptPlacement() != null,
                name + ": interrupt placement");
        assertEquals(caps.contains(Capability.ON_DEMAND_PAGING), p.onDemandPaging(first.node()) != null,
                name + ": on-demand paging");
        assertEquals(caps.contains(Capability.FAULT_TRACE), p.faultTrace(first.endpoint()) != null, name + ": fault trace");
        assertEquals(caps.contains(Capability.DMA_BUF), p.dmaBuf(first.node()) != null, name + ": dma-buf registration");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void metricsAnswerByKindAndRestartOneAtATime(String name) {
        RegistrationPolicy p = Ran.of(name).policy();
        List<Metric> published = new ArrayList<>();
        for (Metric m : Metric.values()) {
            if (m.kind() == Metric.Kind.COUNT) {
                assertTrue(Double.isNaN(p.mean(m)), name + " answers a mean for count " + m);
                if (p.count(m) != RegistrationPolicy.NOT_COUNTED) {
                    assertTrue(p.count(m) >= 0, name + ": " + m + " = " + p.count(m));
                    published.add(m);
                }
            } else {
                assertEquals(RegistrationPolicy.NOT_COUNTED, p.count(m), name + " answers a count for mean " + m);
                double mean = p.mean(m);
                assertTrue(Double.isNaN(mean) || mean >= 0, name + ": " + m + " = " + mean);
            }
        }
        for (Metric m : Metric.values()) {
            Map<Metric, Long> before = new EnumMap<>(Metric.class);
            published.forEach(o -> before.put(o, p.count(o)));
            p.reset(m);
            for (Metric o : published) {
                assertEquals(o == m ? 0 : before.get(o), p.count(o), name + ": " + o + " after reset(" + m + ")");
            }
            if (m.kind() == Metric.Kind.MEAN) {
                assertTrue(Double.isNaN(p.mean(m)), name + ": " + m + " has samples after its reset");
            }
        }
    }

    /** One run of the first operation the policy carries, rank 0 to rank 1. */
    private record Ran(PolicyDescriptor descriptor, Conformance.Outcome outcome) {
        static Ran of(String name) {
            PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
            Capability op = Conformance.OPERATIONS.stream().filter(d.capabilities()::contains).findFirst().orElseThrow();
            Conformance.Outcome o = Conformance.run(d, op, 1);
            assertTrue(Boolean.TRUE.equals(o.completed()) && o.verified(), name + " " + op + ": " + o.failure());
            return new Ran(d, o);
        }

        RegistrationPolicy policy() {
            return outcome.job().policy();
        }

        StatisticsRegistry stats() {
            return outcome.job().simulator().statistics();
        }

        /** The statistics the descriptor lists, {@code <policy>} and {@code <node>} filled in for each node with a rank. */
        Set<String> declared() {
            Set<String> names = new TreeSet<>();
            for (Statistic s : descriptor.statistics()) {
                for (Rank r : outcome.job().ranks()) {
                    names.add(s.nameFor(descriptor.name(), r.node().name()));
                }
            }
            return names;
        }
    }
}
