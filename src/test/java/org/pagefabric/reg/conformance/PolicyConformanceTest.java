package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;

/**
 * The contract every registered policy keeps, run over all of them (and over any policy a jar on
 * the test class path adds): its descriptor is complete, it carries each operation its
 * capabilities name with the bytes verified, it refuses the operations they exclude instead of
 * corrupting data, the pins it reports are pins the kernel holds, and it is deterministic.
 */
class PolicyConformanceTest {
    static Stream<String> policies() {
        return PolicyRegistry.standard().names().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void describesItself(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        assertFalse(d.description().isBlank(), name + ": description");
        assertTrue(d.capabilities().stream().anyMatch(c -> !c.isHardwareNeed()),
                name + ": carries no operation at all");
        for (Parameter p : d.parameters()) {
            assertTrue(ParameterRegistry.find(p.name()).isPresent(), name + " reads unknown parameter " + p.name());
        }
        RegistrationPolicy policy = PolicyRegistry.standard().create(name, Conformance.profileFor(d));
        assertEquals(name, policy.name(), "the instance answers to the name it is registered under");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void carriesWhatItDeclaresWithTheBytesIntact(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        for (Capability c : Conformance.OPERATIONS) {
            if (d.capabilities().contains(c)) {
                Conformance.Outcome o = Conformance.run(d, c, 1);
                assertNotNull(o.completed(), name + " " + c + ": " + o.failure());
                assertTrue(o.completed(), name + " " + c + " did not complete successfully");
                assertTrue(o.verified(), name + " " + c + ": the destination does not hold the source's bytes");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void refusesWhatItsCapabilitiesExclude(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        for (Capability c : Conformance.OPERATIONS) {
            if (!d.capabilities().contains(c)) {
                Conformance.Outcome o = Conformance.run(d, c, 1);
                assertTrue(o.failure() instanceof PolicyRefusal, name + " declares no " + c.phrase()
                        + " but did not refuse one: " + (o.failure() == null ? "it completed" : o.failure()));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void refusesHardwareItNeedsButTheProfileLacks(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Profile plain = Conformance.profile("default").withOverrides(java.util.Map.of("nic.iommu", "false"), "conformance test");
        String refusal = d.refusal(Set.of(), plain);
        assertEquals(d.capabilities().contains(Capability.NEEDS_IOMMU), refusal != null,
                name + " on a profile without an IOMMU: " + refusal);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void pinsItReportsAreHeldByTheKernel(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Capability c = Conformance.OPERATIONS.stream().filter(d.capabilities()::contains).findFirst().orElseThrow();
        Conformance.Outcome o = Conformance.run(d, c, 1);
        Job job = o.job();
        List<String> wrong = new ArrayList<>();
        for (var e : job.layout().endpoints()) {
            long reported = job.policy().pinnedBytes(e);
            long held = pinnedFrames(e.node().memory().frames()) * org.pagefabric.hw.os.Kernel.PAGE_SIZE;
            if (reported < 0 || reported > held) {
                wrong.add("rank " + e.id() + " reports " + reported + " B pinned, its node's frames hold " + held
                        + " B of pins");
            }
        }
        assertTrue(wrong.isEmpty(), name + ": " + String.join("; ", wrong));
    }

    private static long pinnedFrames(org.pagefabric.hw.mem.FrameTable frames) {
        long n = 0;
        for (long f = 0; f < frames.frames(); f++) {
            n += frames.pinCount(f) > 0 ? 1 : 0;
        }
        return n;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void isDeterministic(String name) {
        PolicyDescriptor d = PolicyRegistry.standard().descriptor(name);
        Capability c = Conformance.OPERATIONS.stream().filter(d.capabilities()::contains).findFirst().orElseThrow();
        Conformance.Outcome a = Conformance.run(d, c, 7);
        Conformance.Outcome b = Conformance.run(d, c, 7);
        assertEquals(a.endPs(), b.endPs(), name + ": same seed, different end time");
        assertEquals(a.events(), b.events(), name + ": same seed, different number of events");
    }
}
