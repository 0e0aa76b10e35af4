package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The device-memory exporter: dma-bufs, their attachments, and moves under move_notify or refused by a pin. */
class DeviceMemoryTest {
    private final OsCosts c = TestKernels.costs();

    @Test
    void aMoveNotifiesEveryDynamicImporterUnderTheReservationLockBeforeTheFramesChange() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        DeviceMemory dev = k.deviceMemory();
        DmaBuf buf = dev.export(4 * Kernel.PAGE_SIZE);
        buf.writeTag(9, 0);
        long[] before = {buf.frame(0), buf.frame(1), buf.frame(2), buf.frame(3)};
        List<String> heard = new ArrayList<>();
        DmaBufAttachment a = buf.attach(att -> {
            heard.add("locked=" + att.buffer().reserved() + " frame0=" + (att.buffer().frame(0) == before[0]));
            return 700;
        });
        DmaBufAttachment b = buf.attach(att -> 300);
        PageOpResult r = dev.move(buf);
        assertTrue(r.done());
        assertEquals(List.of("locked=true frame0=true"), heard, "move_notify runs under the lock, before the move");
        assertEquals(1000 + 4 * c.migratePerPagePs(), r.costPs(), "the importers' time and the copy");
        for (int i = 0; i < 4; i++) {
            assertNotEquals(before[i], buf.frame(i));
            assertFalse(k.memory().isAllocated(before[i]), "old frame " + i + " freed");
        }
        assertTrue(buf.verifyTag(buf.size(), 9, 0), "the content moved with the buffer");
        assertFalse(buf.reserved());
        assertEquals(1, a.generation());
        assertArrayEquals(new long[] {buf.frame(1), buf.frame(2)}, b.map(1, 2));
    }

    @Test
    void aPinnedStaticAttachmentRefusesEveryMoveUntilDetached() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        DeviceMemory dev = k.deviceMemory();
        DmaBuf buf = dev.export(2 * Kernel.PAGE_SIZE);
        List<Long> heard = new ArrayList<>();
        buf.attach(att -> {
            heard.add(att.generation());
            return 0;
        });
        DmaBufAttachment pinned = buf.attach(null);
        assertThrows(IllegalStateException.class, () -> pinned.map(0, 2), "a static importer maps only after dma_buf_pin");
        pinned.pin();
        long[] frames = pinned.map(0, 2);
        assertEquals(Errno.EBUSY, dev.move(buf).error());
        assertEquals(List.of(), heard, "a refused move notifies nobody");
        assertArrayEquals(frames, pinned.map(0, 2), "the buffer stayed where it was");
        pinned.detach();
        assertTrue(dev.move(buf).done());
        assertEquals(1, dev.moves());
        assertEquals(1, dev.refusedMoves());
    }

    @Test
    void mappingInsideMoveNotifyIsRefusedAndAReleasedBufferFreesItsFrames() {
        Kernel k = TestKernels.kernel(1024, 0, ThpMode.NEVER);
        DeviceMemory dev = k.deviceMemory();
        long used = k.memory().usedFrames();
        DmaBuf buf = dev.export(3 * Kernel.PAGE_SIZE + 1);
        assertEquals(4, buf.pages());
        assertEquals(used + 4, k.memory().usedFrames());
        DmaBufAttachment a = buf.attach(att -> {
            assertThrows(IllegalStateException.class, () -> att.map(0, 1));
            return 0;
        });
        assertTrue(dev.move(buf).done());
        assertThrows(IllegalStateException.class, () -> dev.release(buf), "an attachment is left");
        a.detach();
        dev.release(buf);
        assertEquals(used, k.memory().usedFrames());
    }

    @Test
    void anExportLargerThanMemoryFailsWithEnomemAndKeepsNothing() {
        Kernel k = TestKernels.kernel(64, 0, ThpMode.NEVER);
        long used = k.memory().usedFrames();
        OsException e = assertThrows(OsException.class, () -> k.deviceMemory().export(128 * Kernel.PAGE_SIZE));
        assertEquals(Errno.ENOMEM, e.errno());
        assertEquals(used, k.memory().usedFrames());
    }
}
