package org.pagefabric.hw.os;

import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.StatisticsRegistry;

/** The memory manager's counters, declared in the simulation's statistics registry. */
public final class KernelStats {
    final Counter minorFaults;
    final Counter hugeFaults;
    final Counter majorFaults;
    final Counter cowFaults;
    final Counter segvs;
    final Counter ooms;
    final Counter pins;
    final Counter unpins;
    final Counter reclaimScanned;
    final Counter reclaimed;
    final Counter migrations;
    final Counter migrationsRefused;
    final Counter thpCollapses;
    final Counter thpSplits;
    final Counter invalidations;
    final Counter notifierCallbacks;
    final Counter forks;

    KernelStats(StatisticsRegistry registry, String prefix) {
        minorFaults = registry.counter(prefix + ".faults.minor", "faults", "anonymous faults resolved by zero-fill or write upgrade");
        hugeFaults = registry.counter(prefix + ".faults.huge", "faults", "faults that mapped a zero-filled 2 MiB page");
        majorFaults = registry.counter(prefix + ".faults.major", "faults", "faults that read a page back from swap");
        cowFaults = registry.counter(prefix + ".faults.cow", "faults", "copy-on-write breaks");
        segvs = registry.counter(prefix + ".faults.segv", "faults", "accesses refused with SIGSEGV");
        ooms = registry.counter(prefix + ".faults.oom", "faults", "faults that found no frame even after reclaim");
        pins = registry.counter(prefix + ".gup.pinned", "pages", "pages pinned by get_user_pages");
        unpins = registry.counter(prefix + ".gup.unpinned", "pages", "pins released by put_page");
        reclaimScanned = registry.counter(prefix + ".reclaim.scanned", "pages", "pages examined by the reclaim clock");
        reclaimed = registry.counter(prefix + ".reclaim.swapped_out", "pages", "pages written to swap and freed");
        migrations = registry.counter(prefix + ".migrate.done", "pages", "4 KiB pages migrated to another frame");
        migrationsRefused = registry.counter(prefix + ".migrate.refused", "pages", "migrations refused (pinned or busy)");
        thpCollapses = registry.counter(prefix + ".thp.collapsed", "pages", "2 MiB pages made by khugepaged collapse");
        thpSplits = registry.counter(prefix + ".thp.split", "pages", "2 MiB pages split into 4 KiB pages");
        invalidations = registry.counter(prefix + ".notifier.invalidations", "ranges", "invalidate_start calls");
        notifierCallbacks = registry.counter(prefix + ".notifier.callbacks", "calls", "MMU interval notifier callbacks run");
        forks = registry.counter(prefix + ".fork", "calls", "fork calls");
    }

    /** Minor faults (4 KiB and 2 MiB). */
    public long minorFaults() {
        return minorFaults.value() + hugeFaults.value();
    }

    /** Major faults. */
    public long majorFaults() {
        return majorFaults.value();
    }

    /** Copy-on-write breaks. */
    public long cowFaults() {
        return cowFaults.value();
    }

    /** Pages pinned by get_user_pages. */
    public long pins() {
        return pins.value();
    }

    /** Pins released. */
    public long unpins() {
        return unpins.value();
    }

    /** Pages swapped out. */
    public long reclaimed() {
        return reclaimed.value();
    }

    /** Pages migrated. */
    public long migrations() {
        return migrations.value();
    }

    /** Migrations refused. */
    public long migrationsRefused() {
        return migrationsRefused.value();
    }

    /** Huge pages collapsed. */
    public long thpCollapses() {
        return thpCollapses.value();
    }

    /** Huge pages split. */
    public long thpSplits() {
        return thpSplits.value();
    }

    /** Notifier callbacks run. */
    public long notifierCallbacks() {
        return notifierCallbacks.value();
    }

    /** invalidate_start calls (notifier ranges) so far. */
    public long invalidations() {
        return invalidations.value();
    }
}
