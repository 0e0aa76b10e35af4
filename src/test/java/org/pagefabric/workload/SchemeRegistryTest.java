package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;

/** The application schemes on the class path, what each needs of its policy, and the errors naming them. */
class SchemeRegistryTest {
    private static final SchemeRegistry SCHEMES = SchemeRegistry.standard();

    @Test
    void theHashtableAndTheApplicationsHaveTheSchemesOf002() {
        assertEquals(List.of("rma", "am", "am-exp", "am-onload", "am-ints", "aa"), SCHEMES.names("dht-insert"));
        assertEquals(List.of("aa", "rma", "akv", "allreduce", "no-count"), SCHEMES.names("access-counter"));
        assertEquals(List.of("aa", "rma", "am", "no-ft"), SCHEMES.names("logged-gets"));
        assertEquals(List.of("aa", "rma", "am", "no-ft"), SCHEMES.names("coral-sort"));
        assertEquals(List.of(), SCHEMES.names("pingpong"));
        assertEquals(List.of("rma", "am", "am-exp", "am-onload", "am-ints", "aa", "akv", "allreduce", "no-count",
                "no-ft"), SCHEMES.names());
    }

    @Test
    void everySchemeAppliesToARealWorkloadThatDeclaresIt() {
        for (SchemeDescriptor d : SCHEMES.all()) {
            for (String w : d.workloads()) {
                WorkloadParameter p = WorkloadRegistry.standard().byName(w).parameter(StandardParameters.SCHEME);
                assertTrue(p != null && p.choices().contains(d.name()), w + " offers scheme " + d.name());
            }
        }
    }

    @Test
    void everySchemeNeedsARealPolicyOrACapabilitySomePolicyOffers() {
        PolicyRegistry policies = PolicyRegistry.standard();
        for (SchemeDescriptor d : SCHEMES.all()) {
            switch (d.needs()) {
                case RegistrationNeed.Named n -> assertTrue(policies.contains(n.name()), d.name() + " needs " + n.name());
                case RegistrationNeed.Offering o -> assertTrue(policies.all().stream()
                        .anyMatch(p -> p.capabilities().contains(o.capability())), d.name() + " needs " + o.capability());
            }
            assertFalse(SchemeRegistry.policiesFor(d, policies).isEmpty(), d.name() + " runs under some policy");
        }
        assertEquals(List.of("aa-int", "aa-poll", "aa-sp"),
                SchemeRegistry.policiesFor(SCHEMES.descriptor("aa", "dht-insert"), policies));
        assertEquals(List.of("pin-all"), SchemeRegistry.policiesFor(SCHEMES.descriptor("am-onload", "dht-insert"), policies));
        assertEquals(RegistrationNeed.offering(Capability.ACCESS_LOG), SCHEMES.descriptor("aa", "coral-sort").needs());
    }

    @Test
    void oneNameIsOneSchemePerWorkload() {
        SchemeDescriptor hashtable = SCHEMES.descriptor("rma", "dht-insert");
        SchemeDescriptor counter = SCHEMES.descriptor("rma", "access-counter");
        assertTrue(hashtable != counter && hashtable.appliesTo("dht-insert") && !hashtable.appliesTo("access-counter"));
        SchemeDescriptor a = new SchemeDescriptor("x", "one", Set.of("dht-insert"), RegistrationNeed.policy("pin-all"),
                List.of(), Object::new);
        SchemeDescriptor b = new SchemeDescriptor("x", "two", Set.of("dht-insert", "coral-sort"),
                RegistrationNeed.policy("pin-all"), List.of(), Object::new);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SchemeRegistry.of(List.of(a, b)));
        assertEquals("two schemes called 'x' apply to the same workload", e.getMessage());
    }

    @Test
    void anUnknownSchemeIsOneLineListingTheValidNames() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SCHEMES.descriptor("no-ft", "dht-insert"));
        assertEquals("unknown scheme 'no-ft' for workload 'dht-insert'; valid: rma, am, am-exp, am-onload, am-ints, aa",
                e.getMessage());
        assertEquals("workload 'pingpong' runs no scheme",
                assertThrows(IllegalArgumentException.class, () -> SCHEMES.descriptor("rma", "pingpong")).getMessage());
    }

    @Test
    void aPolicyWithoutTheNeededRegistrationIsRefusedNamingThoseWithIt() {
        assertEquals(SCHEMES.descriptor("aa", "logged-gets"), SCHEMES.forRun("aa", "logged-gets", "aa-sp"));
        PolicyRefusal e = assertThrows(PolicyRefusal.class, () -> SCHEMES.forRun("aa", "logged-gets", "pin-all"));
        assertEquals("scheme 'aa' needs a policy with an IOMMU access log with handlers, not policy 'pin-all';"
                + " policies that have it: aa-int, aa-poll, aa-sp", e.getMessage());
        PolicyRefusal f = assertThrows(PolicyRefusal.class, () -> SCHEMES.forRun("akv", "access-counter", "aa-poll"));
        assertEquals("scheme 'akv' needs policy pin-all, not policy 'aa-poll'; policies that have it: pin-all",
                f.getMessage());
    }

    @Test
    void aSchemeBuildsWhatItsWorkloadRunsAndSaysSoIfNot() {
        SchemeDescriptor d = SCHEMES.descriptor("am", "dht-insert");
        Object first = d.create(Object.class);
        assertTrue(first != d.create(Object.class), "a fresh hashtable scheme per run");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> d.create(String.class));
        assertTrue(e.getMessage().startsWith("scheme am builds a "), e.getMessage());
    }

    @Test
    void theNeedsMatchPolicyDescriptors() {
        PolicyDescriptor pinAll = PolicyRegistry.standard().descriptor("pin-all");
        PolicyDescriptor aaPoll = PolicyRegistry.standard().descriptor("aa-poll");
        assertTrue(RegistrationNeed.policy("pin-all").metBy(pinAll));
        assertFalse(RegistrationNeed.policy("pin-all").metBy(aaPoll));
        assertTrue(RegistrationNeed.offering(Capability.ACCESS_LOG).metBy(aaPoll));
        assertFalse(RegistrationNeed.offering(Capability.ACCESS_LOG).metBy(pinAll));
    }
}
