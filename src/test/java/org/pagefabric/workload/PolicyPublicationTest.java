package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.hw.profile.ProfileRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * What every registered policy says it publishes, checked against what it publishes after a small
 * run: the statistics its descriptor lists, the extensions its capabilities offer, and the typed
 * metrics it answers.
 */
class PolicyPublicationTest {
    private static final PolicyRegistry REGISTRY = PolicyRegistry.standard();

    /** Every policy that carries puts or sends, the operations of the small run. */
    static Stream<String> policies() {
        return REGISTRY.all().stream()
                .filter(d -> d.offers(Set.of(Capability.PUT)) || d.offers(Set.of(Capability.SEND_RECEIVE)))
                .map(PolicyDescriptor::name);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void everyDeclaredStatisticExistsAfterASmallRun(String name) {
        SmallRun run = SmallRun.of(name);
        Set<String> declared = new TreeSet<>();
        for (Statistic s : REGISTRY.descriptor(name).statistics()) {
            for (String node : run.nodes()) {
                declared.add(s.nameFor(name, node));
            }
        }
        Set<String> missing = new TreeSet<>();
        for (String full : declared) {
            if (run.sim.statistics().get(full) == null) {
                missing.add(full);
            }
        }
        assertTrue(missing.isEmpty(), name + " declares statistics it does not publish: " + missing);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void everyStatisticBesideADeclaredOneIsDeclared(String name) {
        SmallRun run = SmallRun.of(name);
        Set<String> declared = new TreeSet<>();
        Set<String> prefixes = new TreeSet<>();
        for (Statistic s : REGISTRY.descriptor(name).statistics()) {
            for (String node : run.nodes()) {
                String full = s.nameFor(name, node);
                declared.add(full);
                prefixes.add(full.substring(0, full.lastIndexOf('.') + 1));
            }
        }
        Set<String> undeclared = new TreeSet<>();
        for (org.pagefabric.sim.stat.Statistic s : run.sim.statistics().all()) {
            if (prefixes.stream().anyMatch(s.name()::startsWith) && !declared.contains(s.name())) {
                undeclared.add(s.name());
            }
        }
        assertTrue(undeclared.isEmpty(), name + " publishes statistics its descriptor does not list: " + undeclared);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void extensionsAreOfferedExactlyAsTheDescriptorDeclares(String name) {
        SmallRun run = SmallRun.of(name);
        Set<Capability> caps = REGISTRY.descriptor(name).capabilities();
        RegistrationPolicy p = run.policy;
        Rank first = run.job.rank(0);
        assertEquals(caps.contains(Capability.INTERRUPT_PLACEMENT), p.interruptPlacement() != null,
                name + ": interrupt placement");
        assertEquals(caps.contains(Capability.ON_DEMAND_PAGING), p.onDemandPaging(first.node()) != null,
                name + ": on-demand paging");
        assertEquals(caps.contains(Capability.FAULT_TRACE), p.faultTrace(first.endpoint()) != null, name + ": fault trace");
    }

    @ParameterizedTest
    @MethodSource("policies")
    void metricsAnswerByKindAndRestartOnReset(String name) {
        RegistrationPolicy p = SmallRun.of(name).policy;
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
            Map<Metric, Long> before = new java.util.EnumMap<>(Metric.class);
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

    /** A two-rank run of a few 4 KiB puts (or sends, for a policy without puts) under one policy. */
    private record SmallRun(Simulator sim, Job job, RegistrationPolicy policy) {
        static SmallRun of(String name) {
            PolicyDescriptor d = REGISTRY.descriptor(name);
            Profile profile = ProfileRegistry.load(d.capabilities().contains(Capability.NEEDS_IOMMU) ? "part-forth"
                    : "default");
            Workload w = WorkloadRegistry.standard().byName(d.offers(Set.of(Capability.PUT)) ? "latency" : "pingpong");
            Map<String, Object> values = w.resolve(Map.of(StandardParameters.SIZE, 4096, StandardParameters.ITERATIONS, 3));
            Simulator sim = new Simulator(1);
            RegistrationPolicy policy = d.factory().apply(profile);
            Job job = new Job(sim, profile, w.nodes(values), w.ranks(values), w.segmentBytes(values), policy,
                    w.connectsRanks());
            LatencyHistogram lat = sim.statistics().latency("workload.latency", "latency of each timed operation");
            Workload.Run run = w.start(job, values, lat);
            sim.run();
            assertTrue(run.verified(), name + ": the small run did not deliver its bytes");
            return new SmallRun(sim, job, policy);
        }

        /** Names of the nodes that run a rank, what {@code <node>} stands for. */
        Set<String> nodes() {
            Set<String> names = new TreeSet<>();
            for (Rank r : job.ranks()) {
                names.add(r.node().name());
            }
            return names;
        }
    }
}
