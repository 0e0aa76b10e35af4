package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.workload.PointRun;

/** Hand-written traces replayed: what each kind of record does to the job. */
class TraceWorkloadTest {
    private static final String HEADER = "{\"format\":\"pagefabric-trace\",\"version\":1,\"ranks\":2,"
            + "\"segment_bytes\":65536%s}\n";

    @TempDir
    Path dir;

    private Path trace(String headerExtra, String... records) throws IOException {
        Path f = dir.resolve("t" + System.nanoTime() + ".trace.jsonl");
        Files.writeString(f, HEADER.formatted(headerExtra) + String.join("\n", records) + "\n");
        return f;
    }

    private static Map<String, Object> replay(Path trace, String policy) {
        return PointRun.run(ProfileRegistry.load("default"), policy, new TraceWorkload(),
                Map.of(TraceWorkload.TRACE, trace.toString()), 1);
    }

    @Test
    void aReplayThatDoesNotVerifySaysWhy() {
        Path churn = Path.of("docs/examples/realloc-churn.trace.jsonl");
        // pin-all pins each buffer's mapping whole and drops it when the mapping goes, so no frame is stale
        Map<String, Object> pinned = replay(churn, "pin-all");
        assertEquals(true, pinned.get("verified"), pinned.toString());
        assertTrue((double) pinned.get(TraceWorkload.PINNED_PEAK) >= 2.0, pinned.toString());
        Map<String, Object> stale = replay(churn, "cache-nomonitor");
        assertEquals("22 of 28 operations delivered other bytes than the application's buffer held"
                + " (a registration gone stale)", stale.get("reason"));
        assertEquals(null, replay(churn, "cache-hooks").get("reason"));
    }

    @Test
    void aTraceRequiresWhatItsOperationsNeed() throws IOException {
        TraceWorkload w = new TraceWorkload();
        Path puts = trace("", "{\"rank\":0,\"op\":\"put\",\"addr\":0,\"len\":64,\"peer\":1,\"raddr\":0}");
        assertEquals(Set.of(Capability.PUT), w.requires(w.resolve(Map.of("trace", puts.toString()))));
        Path mixed = trace("", "{\"rank\":0,\"op\":\"get\",\"addr\":0,\"len\":64,\"peer\":1,\"raddr\":0}",
                "{\"rank\":0,\"op\":\"send\",\"addr\":0,\"len\":64,\"peer\":1}",
                "{\"rank\":0,\"op\":\"madvise\",\"addr\":0,\"len\":4096}");
        assertEquals(Set.of(Capability.GET, Capability.SEND_RECEIVE, Capability.PAGED_OUT_MEMORY),
                w.requires(w.resolve(Map.of("trace", mixed.toString()))));
    }

    @Test
    void eventsWaitForTheirTime() throws IOException {
        Path f = trace("", "{\"t\":5000,\"rank\":0,\"op\":\"put\",\"addr\":0,\"len\":64,\"peer\":1,\"raddr\":0}",
                "{\"rank\":0,\"op\":\"wait\",\"queue\":\"send\"}",
                "{\"gap\":3000,\"rank\":0,\"op\":\"compute\",\"duration\":2000}");
        Map<String, Object> row = replay(f, "cache-hooks");
        double end = (Double) row.get("simulated_us");
        double latency = (Double) row.get("latency_us");
        assertTrue(end >= 5 + latency + 3 + 2 - 0.001, "t, the put, the gap and the compute: " + end);
        assertEquals(true, row.get("verified"));
    }

    /** Staging buffers malloc'd and freed, reused: the hooks tell the cache, unless the allocator bypasses them. */
    @Test
    void anAllocatorThatBypassesTheHooksLeavesTheCacheStale() throws IOException {
        String[] churn = new String[24];
        for (int i = 0; i < 24; i += 4) {
            churn[i] = "{\"rank\":0,\"op\":\"malloc\",\"addr\":\"0x1000000\",\"len\":262144}";
            churn[i + 1] = "{\"rank\":0,\"op\":\"put\",\"addr\":\"0x1000000\",\"len\":65536,\"peer\":1,\"raddr\":0}";
            churn[i + 2] = "{\"rank\":0,\"op\":\"wait\",\"queue\":\"send\"}";
            churn[i + 3] = "{\"rank\":0,\"op\":\"free\",\"addr\":\"0x1000000\"}";
        }
        Map<String, Object> hooked = replay(trace(",\"allocator\":{\"linkage\":\"dynamic\"}", churn), "cache-hooks");
        assertEquals(0L, hooked.get("corrupted"), hooked.toString());
        assertEquals(true, hooked.get("verified"));
        Map<String, Object> custom = replay(trace(",\"allocator\":{\"linkage\":\"custom\"}", churn), "cache-hooks");
        assertEquals(5L, custom.get("corrupted"), "every put after the first names the old frames: " + custom);
        Map<String, Object> mmu = replay(trace(",\"allocator\":{\"linkage\":\"custom\"}", churn), "cache-mmu");
        assertEquals(0L, mmu.get("corrupted"), "MMU notifiers see the kernel's unmaps whoever makes them");
    }

    @Test
    void aMovedMappingIsFollowed() throws IOException {
        Path f = trace("", "{\"rank\":0,\"op\":\"mmap\",\"addr\":\"0x7f0000000000\",\"len\":1048576}",
                "{\"rank\":0,\"op\":\"put\",\"addr\":\"0x7f0000000000\",\"len\":65536,\"peer\":1,\"raddr\":0}",
                "{\"rank\":0,\"op\":\"wait\",\"queue\":\"send\"}",
                "{\"rank\":0,\"op\":\"mremap\",\"addr\":\"0x7f0000000000\",\"len\":1048576,"
                        + "\"new_addr\":\"0x7f0100000000\",\"new_len\":2097152}",
                "{\"rank\":0,\"op\":\"put\",\"addr\":\"0x7f0100100000\",\"len\":65536,\"peer\":1,\"raddr\":0}",
                "{\"rank\":0,\"op\":\"wait\",\"queue\":\"send\"}",
                "{\"rank\":0,\"op\":\"register\",\"addr\":\"0x7f0100000000\",\"len\":4096}",
                "{\"rank\":0,\"op\":\"munmap\",\"addr\":\"0x7f0100000000\",\"len\":2097152}");
        Map<String, Object> row = replay(f, "cache-hooks");
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(2L, row.get("completions"));
    }

    /** A register record is registration work of the rank's own, as the policy's work for a put is. */
    @Test
    void registerRecordsCountAsRegistrationTime() throws IOException {
        String mmap = "{\"rank\":0,\"op\":\"mmap\",\"addr\":\"0x7f0000000000\",\"len\":1048576}";
        String register = "{\"rank\":0,\"op\":\"register\",\"addr\":\"0x7f0000000000\",\"len\":1048576}";
        Map<String, Object> bare = replay(trace("", mmap), "cache-hooks");
        Map<String, Object> registered = replay(trace("", mmap, register), "cache-hooks");
        assertEquals(0.0, bare.get("registration_cpu_us"), bare.toString());
        double us = (Double) registered.get("registration_cpu_us");
        double span = (Double) registered.get("simulated_us") - (Double) bare.get("simulated_us");
        assertTrue(us > 0 && Math.abs(us - span) <= 0.001 * span,
                "pinning and registering 1 MiB is all rank 0 does besides the mmap: " + us + " us of a " + span
                        + " us longer run");
    }

    @Test
    void sendsAreCheckedAgainstTheirReceives() throws IOException {
        Path f = trace("", "{\"rank\":1,\"op\":\"recv\",\"addr\":8192,\"len\":4096,\"peer\":0}",
                "{\"rank\":0,\"op\":\"send\",\"addr\":0,\"len\":4096,\"peer\":1,\"gap\":1000}",
                "{\"rank\":0,\"op\":\"wait\",\"queue\":\"send\"}",
                "{\"rank\":1,\"op\":\"wait\",\"queue\":\"recv\"}");
        Map<String, Object> row = replay(f, "cache-hooks");
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(2L, row.get("completions"));
    }

    @Test
    void memoryNoRecordMappedIsRefusedWithItsLine() throws IOException {
        Path f = trace("", "{\"rank\":0,\"op\":\"compute\",\"duration\":10}",
                "{\"rank\":0,\"op\":\"put\",\"addr\":\"0x7f0000000000\",\"len\":64,\"peer\":1,\"raddr\":0}");
        SimulationException e = assertThrows(SimulationException.class, () -> replay(f, "cache-hooks"));
        assertTrue(e.getMessage().contains(f + ":3: put: [0x7f0000000000, +64) of rank 0 is not within the segment"),
                e.getMessage());
    }

    @Test
    void aLogsCallThatCannotBeReplayedIsNamedByTheLogsLine() throws IOException {
        Path log = dir.resolve("app.strace");
        Files.writeString(log, """
                5 10:00:00.000000 brk(NULL) = 0x555500010000
                5 10:00:00.000003 brk(0x555500000000) = 0x555500000000
                """);
        Path f = trace(",\"strace\":[{\"rank\":0,\"file\":\"app.strace\"}]");
        SimulationException e = assertThrows(SimulationException.class, () -> replay(f, "cache-hooks"));
        assertTrue(e.getMessage().contains(log + ":2: brk: break 0x555500000000 lies below the initial break"),
                e.getMessage());
    }
}
