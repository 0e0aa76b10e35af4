package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.sim.RandomStream;

/**
 * Hostile RDMA writes end to end: an attacker's work requests leave its queue pairs, cross the
 * reliable transport and meet the victim NIC's responder, which checks key, protection domain
 * and bounds. Forged keys (a known region index with a guessed tag), out-of-bounds ranges under
 * a genuine key, and genuine keys through a queue pair of another protection domain. After every
 * batch the victim's memory, guard pages around each region and another domain's region
 * included, holds the attacker's bytes exactly where an honoured key legitimately reaches and
 * nothing elsewhere; every refusal is counted by its reason; and forged keys are honoured at the
 * rate {@code 2^-tagBits} within four standard deviations of the binomial.
 *
 * <p>A refused RC write puts its queue pair in the error state, as on real NICs, so each attempt
 * uses a queue pair of its own; a batch of them shares one simulated pair of hosts.
 */
class ForgedAccessTest {
    private static final int PAGE = NicBed.PAGE;
    /** Victim regions, one page each, every one between two unregistered guard pages. */
    private static final int REGIONS = 8;
    /** Attempts per simulated pair of hosts (each on its own queue pair). */
    private static final int BATCH = 64;
    private static final long VICTIM = NicBed.BASE;
    /** The victim area: regions and guards, then another domain's region and its guard. */
    private static final int AREA = (2 * REGIONS + 3) * PAGE;
    private static final long SOURCE = NicBed.BASE + 0x100_0000L;
    private static final byte MARK = (byte) 0xA5;

    private enum Attempt { FORGED, OUT_OF_BOUNDS, CROSS_PD }

    /** Counts over all batches of one run. */
    private static final class Tally {
        long forged;
        long forgedHonoured;
        long outOfBounds;
        long crossPd;
        long refusedBadKey;
        long refusedBounds;
        long refusedDomain;
        long honoured;
        long remoteErrors;
    }

    @ParameterizedTest(name = "{0} tag bits: {1} forged, {2} out of bounds, {3} cross-PD")
    @CsvSource({"8, 300000, 100000, 100000", "12, 300000, 0, 0", "4, 100000, 0, 0", "0, 4000, 4000, 4000"})
    void hostileWritesReachNothingTheirKeyDoesNotCoverAndForgeriesSucceedAtTwoToTheMinusBits(int bits, int forged,
            int outOfBounds, int crossPd) {
        RandomStream attacker = new RandomStream(0xF0F0L + bits);
        Tally t = new Tally();
        int total = forged + outOfBounds + crossPd;
        Attempt[] plan = new Attempt[total];
        Arrays.fill(plan, 0, forged, Attempt.FORGED);
        Arrays.fill(plan, forged, forged + outOfBounds, Attempt.OUT_OF_BOUNDS);
        Arrays.fill(plan, forged + outOfBounds, total, Attempt.CROSS_PD);
        for (int from = 0, batch = 0; from < total; from += BATCH, batch++) {
            batch(bits, 1000L * bits + batch, Arrays.copyOfRange(plan, from, Math.min(total, from + BATCH)), attacker, t);
        }
        assertEquals(forged, t.forged);
        assertEquals(outOfBounds, t.outOfBounds);
        assertEquals(crossPd, t.crossPd);
        assertEquals(t.forged - t.forgedHonoured, t.refusedBadKey, "every refused forgery counted as a bad key");
        assertEquals(outOfBounds, t.refusedBounds, "every out-of-bounds write refused and counted");
        assertEquals(crossPd, t.refusedDomain, "every cross-domain write refused and counted");
        assertEquals(t.forgedHonoured, t.honoured, "only forgeries that guessed the tag completed");
        assertEquals(total - t.honoured, t.remoteErrors, "every refusal completed at the attacker as an access error");
        double p = Math.pow(2, -bits);
        double mean = forged * p;
        double sigma = Math.sqrt(forged * p * (1 - p));
        assertTrue(Math.abs(t.forgedHonoured - mean) <= 4 * sigma + 1e-9, bits + " tag bits: " + t.forgedHonoured
                + " of " + forged + " forged keys honoured, expected " + mean + " +- " + 4 * sigma);
    }

    private static void batch(int bits, long seed, Attempt[] attempts, RandomStream attacker, Tally t) {
        NicBed bed = new NicBed(seed, null, bits);
        NicBed.Host a = bed.a;
        NicBed.Host b = bed.b;
        ProtectionDomain otherPd = b.nic.allocatePd("other");
        MemoryRegion[] victims = new MemoryRegion[REGIONS];
        for (int i = 0; i < REGIONS; i++) {
            victims[i] = b.pinned(regionVa(i), 1, AccessFlags.REMOTE_WRITE);
        }
        long otherVa = VICTIM + (2L * REGIONS + 1) * PAGE;
        long[] otherFrames = {b.frameOf(otherVa)};
        b.nic.registerPinned(otherPd, otherVa, PAGE, AccessFlags.REMOTE_WRITE, otherFrames);
        for (long va = VICTIM; va < VICTIM + AREA; va += PAGE) {
            b.frameOf(va); // guards are real memory too: a stray write would land in them
        }
        byte[] payload = new byte[PAGE];
        Arrays.fill(payload, MARK);
        a.store(SOURCE, payload);
        MemoryRegion source = a.pinned(SOURCE, 1, 0);
        CompletionQueue sendCq = new CompletionQueue("attacker.cq", attempts.length + 1);
        CompletionQueue victimCq = new CompletionQueue("victim.cq", 1);

        long[] address = new long[attempts.length];
        int[] length = new int[attempts.length];
        for (int n = 0; n < attempts.length; n++) {
            int i = attacker.nextInt(REGIONS);
            MemoryRegion target = victims[i];
            int len = 1 + attacker.nextInt(64);
            long va = target.address() + attacker.nextInt(PAGE - len + 1);
            int rkey = target.rkey();
            ProtectionDomain responderPd = b.pd;
            switch (attempts[n]) {
                case FORGED -> {
                    rkey = (target.index() << bits) | (bits == 0 ? 0 : attacker.nextInt(1 << bits));
                    t.forged++;
                }
                case OUT_OF_BOUNDS -> {
                    // Across either end of the region, or wholly in a guard page.
                    int overhang = 1 + attacker.nextInt(len);
                    va = switch (attacker.nextInt(3)) {
                        case 0 -> target.address() + PAGE - len + overhang;
                        case 1 -> target.address() - overhang;
                        default -> target.address() + PAGE + attacker.nextInt(PAGE - len + 1);
                    };
                    t.outOfBounds++;
                }
                case CROSS_PD -> {
                    responderPd = otherPd;
                    t.crossPd++;
                }
            }
            QueuePair mine = a.nic.createQp(a.pd, QpType.RC, sendCq, sendCq);
            QueuePair theirs = b.nic.createQp(responderPd, QpType.RC, victimCq, victimCq);
            Nic.connect(mine, theirs, NicBed.RC);
            address[n] = va;
            length[n] = len;
            mine.postSend(WorkRequest.write(n, SOURCE, len, source.lkey(), va, rkey));
        }
        bed.sim.run();

        byte[] expected = new byte[AREA];
        int completions = 0;
        for (WorkCompletion wc; (wc = sendCq.poll()) != null; completions++) {
            int n = (int) wc.wrId();
            if (wc.status() == CompletionStatus.SUCCESS) {
                assertEquals(Attempt.FORGED, attempts[n], "only a forged key may be honoured");
                int at = (int) (address[n] - VICTIM);
                Arrays.fill(expected, at, at + length[n], MARK);
                t.honoured++;
                t.forgedHonoured++;
            } else {
                assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, wc.status(), "attempt " + n + " " + attempts[n]);
                t.remoteErrors++;
            }
        }
        assertEquals(attempts.length, completions, "every attempt completed");
        assertArrayEquals(expected, b.load(VICTIM, AREA),
                "the victim's memory holds the attacker's bytes exactly where honoured keys reach");
        t.refusedBadKey += b.nic.refused(AccessCheck.BAD_KEY);
        t.refusedBounds += b.nic.refused(AccessCheck.OUT_OF_BOUNDS);
        t.refusedDomain += b.nic.refused(AccessCheck.WRONG_PROTECTION_DOMAIN);
        assertEquals(0, b.nic.refused(AccessCheck.ACCESS_DENIED));
    }

    /** Region {@code i}'s page: odd pages of the area, so an unregistered guard page lies on each side. */
    private static long regionVa(int i) {
        return VICTIM + (2L * i + 1) * PAGE;
    }
}
