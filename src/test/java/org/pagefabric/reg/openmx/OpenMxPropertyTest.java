package org.pagefabric.reg.openmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/**
 * Random message streams (sizes across eager and rendezvous, random buffers, random munmap and
 * remap of the receiver's memory between messages) under every Open-MX pin mode but permanent
 * pinning (which, like any registration without invalidation, keeps stale frames by design):
 * every byte arrives, user-region pins stay within what two live buffers need, and nothing stays
 * pinned after the endpoint closes.
 */
class OpenMxPropertyTest {
    private static final Profile PROFILE = ProfileRegistry.resolve("openmx-opteron265");
    private static final long SEG = 4L << 20;
    private static final long HALF = SEG / 2;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void randomStreamsDeliverEveryByteAndLeaveNothingPinned(long seed) {
        for (PinMode mode : new PinMode[] {PinMode.PER_COMMUNICATION, PinMode.CACHE, PinMode.OVERLAP}) {
            SplittableRandom rnd = new SplittableRandom(seed * 31 + mode.ordinal());
            OpenMxBed bed = new OpenMxBed(PROFILE, mode, SEG, seed);
            boolean[] ok = {true};
            long declared = 0;
            for (int i = 0; i < 12; i++) {
                long size = rnd.nextBoolean() ? 1 + rnd.nextLong(32 * 1024) : 32 * 1024 + 1 + rnd.nextLong(HALF - 32 * 1024);
                long from = rnd.nextLong(HALF - size + 1);
                long to = HALF + rnd.nextLong(HALF - size + 1);
                bed.message(i, from, to, size, ok);
                if (size > 32 * 1024) {
                    declared += 2 * (Math.ceilDiv(size, 4096) + 1) * 4096;
                }
                assertTrue(ok[0], mode + " message " + i + " of " + size + " B");
                long region = bed.policy.regionPinnedBytes(bed.a.endpoint()) + bed.policy.regionPinnedBytes(bed.b.endpoint());
                assertTrue(region <= (mode == PinMode.CACHE ? declared : 0), mode + ": pinned " + region);
                if (rnd.nextInt(3) == 0) {
                    long off = HALF + (rnd.nextLong(HALF) & -4096L);
                    long len = Math.min(SEG - off, 4096L * (1 + rnd.nextInt(64)));
                    bed.remapReceiver(off, len);
                }
            }
            bed.policy.closeEndpoint(bed.a.endpoint());
            bed.policy.closeEndpoint(bed.b.endpoint());
            assertEquals(0, bed.policy.regionPinnedBytes(bed.a.endpoint()) + bed.policy.regionPinnedBytes(bed.b.endpoint()), mode.name());
            assertEquals(bed.policy.pinnedPagesTotal(), bed.policy.unpinnedPagesTotal(), mode.name());
        }
    }
}
