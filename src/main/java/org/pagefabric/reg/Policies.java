package org.pagefabric.reg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.pagefabric.active.Notification;
import org.pagefabric.hw.profile.Parameter;
import org.pagefabric.hw.profile.ParameterRegistry;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.reg.aaapps.AppBaseline;
import org.pagefabric.reg.aaapps.AppBaselinePolicy;
import org.pagefabric.reg.active.ActiveAccessPolicy;
import org.pagefabric.reg.am.DhtBaseline;
import org.pagefabric.reg.am.DhtBaselinePolicy;
import org.pagefabric.reg.bounce.BounceBuffers;
import org.pagefabric.reg.cache.MonitorKind;
import org.pagefabric.reg.cache.PinDownCache;
import org.pagefabric.reg.firehose.FirehosePolicy;
import org.pagefabric.reg.odp.OdpPolicy;
import org.pagefabric.reg.openmx.OpenMxPolicy;
import org.pagefabric.reg.openmx.PinMode;
import org.pagefabric.reg.part.PageIn;
import org.pagefabric.reg.part.PartPolicy;
import org.pagefabric.reg.part.TableOneMethod;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.reg.rendezvous.Rendezvous;

/** The registration policies that exist, by name, each built from a profile. */
public final class Policies {
    private static final Map<String, Function<Profile, RegistrationPolicy>> BY_NAME = new LinkedHashMap<>();
    private static final Map<String, String> DESCRIPTIONS = new LinkedHashMap<>();
    private static final Map<String, List<String>> PARAMETER_PREFIXES = new LinkedHashMap<>();
    private static final String[] RENDEZVOUS_COSTS = {"rendezvous.", "nic.register.", "nic.deregister.", "os.pin.",
        "os.unpin."};

    static {
        register(PinEverything.NAME, "pin and register each rank's whole communication segment once, at start",
                PinEverything::new, "nic.register.", "os.pin.");
        register(BounceBuffers.NAME, "bounce buffers: puts copied into statically pinned buffers, written into the"
                + " target's and copied out there by its CPU, in pieces; no user memory registered", BounceBuffers::new,
                "bounce.", "memory.bandwidth");
        register(Rendezvous.WITH_UNPIN, "rendezvous: active-message handshake, target pins on demand and unpins after"
                + " each operation; sources in a bounded local pin cache", p -> new Rendezvous(p, true),
                RENDEZVOUS_COSTS);
        register(Rendezvous.NO_UNPIN, "rendezvous without unpin: an active-message handshake before every operation;"
                + " the target pins on demand and keeps every range pinned; sources in a bounded local pin cache", p -> new Rendezvous(p, false),
                RENDEZVOUS_COSTS);
        for (MonitorKind m : MonitorKind.values()) {
            register(m.policyName(), m.description(), p -> new PinDownCache(p, m), "cache.", "nic.register.",
                    "nic.deregister.", "os.pin.", "os.unpin.");
        }
        register(FirehosePolicy.NAME, "Firehose (004): F firehoses per remote node moved by active messages, bucket"
                + " reference counts and a victim FIFO; pinned memory within M + MAXVICTIM", FirehosePolicy::new,
                "firehose.", "nic.register.", "nic.deregister.", "os.pin.", "os.unpin.");
        for (PinMode m : PinMode.values()) {
            register(m.policyName(), m.description(), p -> new OpenMxPolicy(p, m), "openmx.", "os.pin.", "os.unpin.",
                    "os.mmu_notifier.");
        }
        register(OdpPolicy.EXPLICIT, "On-Demand Paging (001), explicit: each buffer in an"
                + " on-demand region, nothing pinned; the NIC faults, the driver pages in, maps and resumes",
                p -> new OdpPolicy(OdpPolicy.EXPLICIT, p), "odp.",
                "nic.register.base", "cpu.");
        register(OdpPolicy.IMPLICIT, "On-Demand Paging (001), implicit: one region over each"
                + " rank's whole address space, registered up front; translations grow with what is faulted in",
                p -> new OdpPolicy(OdpPolicy.IMPLICIT, p), "odp.",
                "nic.register.base", "cpu.");
        register(OdpPolicy.PREFETCH, "On-Demand Paging (001), explicit, every buffer prefetched"
                + " synchronously at both ends before use (the MPI rendezvous use of advise_mr)",
                p -> new OdpPolicy(OdpPolicy.PREFETCH, p), "odp.",
                "nic.register.base", "cpu.");
        for (DhtBaseline b : DhtBaseline.values()) {
            register(b.policyName(), b.description(), p -> new DhtBaselinePolicy(p, b), "am.", "nic.", "cpu.poll_iteration",
                    "cpu.interrupt", "memory.latency", "pcie.latency", "os.pin.");
        }
        String[] partCosts = {"part.", "iommu.", "cpu.interrupt", "cpu.context_switch", "cpu.mmio_read", "os.pin.",
            "os.unpin.", "os.page_fault.minor", "transport.timeout"};
        register(PartPolicy.PIO, "PART (000): nothing pinned, the IOMMU walks the process page table; a network page"
                + " fault is paged in by the fault tasklet (the faulting page only) and its block retransmitted after an"
                + " Explicit Retransmission Request", p -> new PartPolicy(PartPolicy.PIO, p, PageIn.ONE, true), partCosts);
        register(PartPolicy.PI4, "PART, page-in of the faulting page's whole block (4 pages of a 16 KB block) on a fault",
                p -> new PartPolicy(PartPolicy.PI4, p, PageIn.BLOCK, true), partCosts);
        register(PartPolicy.PIA, "PART, page-in of every remaining page of the transfer on its first fault",
                p -> new PartPolicy(PartPolicy.PIA, p, PageIn.ALL, true), partCosts);
        register(PartPolicy.PIO_TIMEOUT, "PART without ERR: faulting packets are dropped, the tasklet pages in the"
                + " faulting page and the source's time-out (transport.timeout) retransmits the block",
                p -> new PartPolicy(PartPolicy.PIO_TIMEOUT, p, PageIn.ONE, false), partCosts);
        register(TableOneMethod.TRANSFER_ONLY, "000 Table I Transfer-Only on PART's hardware: destination pages resident,"
                + " nothing done before the transfer", p -> new TableOneMethod(TableOneMethod.TRANSFER_ONLY, p,
                        TableOneMethod.Preparation.NONE, true), partCosts);
        register(TableOneMethod.PIN_MLOCK, "000 Table I Pin: the destination mlocks its buffer before each transfer"
                + " (munlock after completion), on PART's hardware", p -> new TableOneMethod(TableOneMethod.PIN_MLOCK, p,
                        TableOneMethod.Preparation.MLOCK, false), "os.mlock.", "os.munlock.", "os.page_fault.minor");
        register(TableOneMethod.TOUCH_NOPRES, "000 Table I Touch-NoPres: the destination touches every page of a"
                + " first-use (non-present) buffer before the transfer, one CPU minor fault per page",
                p -> new TableOneMethod(TableOneMethod.TOUCH_NOPRES, p, TableOneMethod.Preparation.TOUCH, false),
                "os.touch.present", "os.page_fault.minor");
        register(TableOneMethod.TOUCH_PRES, "000 Table I Touch-Pres: the destination touches every page, already"
                + " resident, before the transfer", p -> new TableOneMethod(TableOneMethod.TOUCH_PRES, p,
                        TableOneMethod.Preparation.TOUCH, true), "os.touch.present");
        for (Notification n : Notification.values()) {
            register(n.policyName(), "Active Access (002): the extended IOMMU logs accesses to pages marked with"
                    + " assocPage into the process's access log; handlers run on the target's cores, notified by "
                    + n.name().toLowerCase(java.util.Locale.ROOT), p -> new ActiveAccessPolicy(p, n), "aa.", "iommu.",
                    "cpu.interrupt");
        }
        for (AppBaseline b : AppBaseline.values()) {
            register(b.policyName(), b.description(), p -> new AppBaselinePolicy(p, b),
                    "am.", "nic.", "cpu.poll_iteration", "memory.latency", "pcie.latency", "os.pin.");
        }
    }

    /**
     * Registers a policy.
     *
     * @param parameters prefixes (or full names) of the profile parameters whose costs the policy
     *                   reads, so that {@code info POLICY} documents them
     */
    private static void register(String name, String description, Function<Profile, RegistrationPolicy> factory,
                                 String... parameters) {
        BY_NAME.put(name, factory);
        DESCRIPTIONS.put(name, description);
        PARAMETER_PREFIXES.put(name, List.of(parameters));
    }

    /** The profile parameters the policy reads, in registry order. */
    public static List<Parameter> parameters(String name) {
        description(name); // validates the name
        List<String> prefixes = PARAMETER_PREFIXES.get(name);
        return ParameterRegistry.all().stream()
                .filter(p -> prefixes.stream().anyMatch(x -> p.name().equals(x) || x.endsWith(".") && p.name().startsWith(x)))
                .toList();
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
