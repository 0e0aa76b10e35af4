package org.pagefabric.workload;

import java.util.Objects;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;

/**
 * What registration an application scheme needs of the policy it runs under: one policy by name
 * (the baselines of 002 §5.2 run over memory pinned as {@code pin-all} pins it), or any policy
 * that offers a capability (the Active Access schemes run under every policy with an access
 * log, the policy choosing how handlers are notified).
 */
public sealed interface RegistrationNeed {
    /** Whether {@code policy} gives the scheme what it needs. */
    boolean metBy(PolicyDescriptor policy);

    /** How a message names the need: "policy pin-all". */
    String phrase();

    /** The registration of exactly the policy called {@code name}. */
    static RegistrationNeed policy(String name) {
        return new Named(name);
    }

    /** Any policy that offers {@code capability}. */
    static RegistrationNeed offering(Capability capability) {
        return new Offering(capability);
    }

    /**
     * The policy called {@code name}.
     *
     * @param name the policy's name in the {@link org.pagefabric.reg.PolicyRegistry}
     */
    record Named(String name) implements RegistrationNeed {
        /** Checks the name. */
        public Named {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public boolean metBy(PolicyDescriptor policy) {
            return policy.name().equals(name);
        }

        @Override
        public String phrase() {
            return "policy " + name;
        }
    }

    /**
     * Any policy offering {@code capability}.
     *
     * @param capability what the policy must carry
     */
    record Offering(Capability capability) implements RegistrationNeed {
        /** Checks the capability. */
        public Offering {
            Objects.requireNonNull(capability, "capability");
        }

        @Override
        public boolean metBy(PolicyDescriptor policy) {
            return policy.capabilities().contains(capability);
        }

        @Override
        public String phrase() {
            return "a policy with " + capability.phrase();
        }
    }
}
