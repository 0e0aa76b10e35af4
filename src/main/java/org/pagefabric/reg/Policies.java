package org.pagefabric.reg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.reg.bounce.BounceBuffers;
import org.pagefabric.reg.cache.MonitorKind;
import org.pagefabric.reg.cache.PinDownCache;
import org.pagefabric.reg.firehose.FirehosePolicy;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.reg.rendezvous.Rendezvous;

/** The registration policies that exist, by name, each built from a profile. */
public final class Policies {
    private static final Map<String, Function<Profile, RegistrationPolicy>> BY_NAME = new LinkedHashMap<>();
    private static final Map<String, String> DESCRIPTIONS = new LinkedHashMap<>();

    static {
        register(PinEverything.NAME, "pin and register each rank's whole communication segment once, at start",
                PinEverything::new);
        register(BounceBuffers.NAME, "bounce buffers: puts copied into statically pinned buffers, written into the"
                + " target's and copied out there by its CPU, in pieces; no user memory registered", BounceBuffers::new);
        register(Rendezvous.WITH_UNPIN, "rendezvous: active-message handshake, target pins on demand and unpins after"
                + " each operation; sources in a bounded local pin cache", p -> new Rendezvous(p, true));
        register(Rendezvous.NO_UNPIN, "rendezvous without unpin: target ranges stay pinned and their keys cached by"
                + " the initiator; sources in a bounded local pin cache", p -> new Rendezvous(p, false));
        for (MonitorKind m : MonitorKind.values()) {
            register(m.policyName(), m.description(), p -> new PinDownCache(p, m));
        }
        register(FirehosePolicy.NAME, "Firehose (004): F firehoses per remote node moved by active messages, bucket"
                + " reference counts and a victim FIFO; pinned memory within M + MAXVICTIM", FirehosePolicy::new);
    }

    private static void register(String name, String description, Function<Profile, RegistrationPolicy> factory) {
        BY_NAME.put(name, factory);
        DESCRIPTIONS.put(name, description);
    }

    /** One line saying what the policy does. */
    public static String description(String name) {
        String d = DESCRIPTIONS.get(name);
        if (d == null) {
            throw new IllegalArgumentException("unknown policy '" + name + "'; valid: " + String.join(", ", names()));
        }
        return d;
    }

    private Policies() {
    }

    /** A new instance of the policy called {@code name} with costs from {@code profile}. */
    public static RegistrationPolicy create(String name, Profile profile) {
        Function<Profile, RegistrationPolicy> f = BY_NAME.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown policy '" + name + "'; valid: " + String.join(", ", names()));
        }
        return f.apply(profile);
    }

    /** Every policy name. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }
}
