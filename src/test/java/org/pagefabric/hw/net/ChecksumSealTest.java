package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;

/**
 * Lazy sealing ({@link Checksum#seal}, {@link Checksum#intact}) against the checksum computed
 * at sealing that it stands for: seeded random packets (header fields, byte or tag payloads,
 * every kind) cross a link that corrupts some of them, and the receiver's verdict is the one a
 * comparison with the eagerly computed checksum gives, for every packet.
 */
class ChecksumSealTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void lazyVerdictsEqualEagerOnes(long seed) {
        List<Boolean> eager = verdicts(seed, false);
        List<Boolean> lazy = verdicts(seed, true);
        assertEquals(2000, lazy.size());
        assertEquals(eager, lazy);
        long failed = lazy.stream().filter(b -> !b).count();
        assertEquals(true, failed > 400 && failed < 1000, failed + " of 2000 corrupted: about a third of them");
    }

    /**
     * The receiver's verdicts on 2000 seeded packets through a link that corrupts about a third
     * of them, sealed lazily or with the checksum computed at once and compared on arrival.
     */
    private static List<Boolean> verdicts(long seed, boolean lazy) {
        RandomStream rnd = new RandomStream(seed);
        Simulator sim = new Simulator(seed);
        PacketPool pool = new PacketPool(4, 64);
        Link link = new Link(sim, null, "l", new LinkParams(0, 1_000_000_000L), pool);
        List<Boolean> verdicts = new ArrayList<>();
        link.connect(p -> {
            verdicts.add(lazy ? Checksum.intact(p) : Checksum.of(p) == p.checksum);
            pool.release(p);
        });
        for (int i = 0; i < 2000; i++) {
            link.setFaults(new LinkFaults(0, rnd.nextInt(3) == 0 ? 1 : 0));
            Packet p = randomPacket(pool, rnd);
            if (lazy) {
                Checksum.seal(p);
            } else {
                p.checksum = Checksum.of(p);
            }
            p.wireBytes = 16 + p.length;
            link.transmit(p);
            sim.run();
        }
        return verdicts;
    }

    private static Packet randomPacket(PacketPool pool, RandomStream rnd) {
        Packet p = pool.acquire();
        PacketKind[] kinds = PacketKind.values();
        p.kind = kinds[rnd.nextInt(kinds.length)];
        p.reason = p.kind == PacketKind.NACK ? NackReason.values()[rnd.nextInt(NackReason.values().length)] : null;
        p.src = rnd.nextInt(64);
        p.dst = rnd.nextInt(64);
        p.channel = rnd.nextInt(16);
        p.opcode = rnd.nextInt(8);
        p.address = rnd.nextLong();
        p.messageId = rnd.nextLong();
        p.psn = rnd.nextLong(1 << 20);
        p.offset = rnd.nextLong(1 << 20);
        if (rnd.nextInt(2) == 0) {
            p.hasBytes = true;
            p.length = 1 + rnd.nextInt(64);
            for (int b = 0; b < p.length; b++) {
                p.bytes[b] = (byte) rnd.nextInt(256);
            }
        } else {
            p.length = rnd.nextInt(2) == 0 ? 0 : 1 + rnd.nextInt(4096);
            p.contentTag = rnd.nextLong();
            p.tagPosition = rnd.nextLong(1 << 30);
        }
        return p;
    }
}
